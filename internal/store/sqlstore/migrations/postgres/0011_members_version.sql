-- Members version: a number on each deal that moves whenever who is on
-- the deal, or what a write needs to know of them, changes (its parties,
-- its people, their users' names and e-mail addresses), so that a write
-- can check, with the deal's row it reads anyway, that the members it
-- holds are current instead of reading them again (docs/decisions.md,
-- "Writes on SQLite"). Triggers catch every writer. An UPDATE that
-- changes nothing (a world file applied again) moves nothing.
ALTER TABLE deals ADD COLUMN members_version BIGINT NOT NULL DEFAULT 0;

CREATE FUNCTION dealctl_members_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD IS NOT DISTINCT FROM NEW THEN
        RETURN NULL;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE deals SET members_version = members_version + 1 WHERE id = OLD.deal_id;
    END IF;
    IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.deal_id IS DISTINCT FROM OLD.deal_id) THEN
        UPDATE deals SET members_version = members_version + 1 WHERE id = NEW.deal_id;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER people_members AFTER INSERT OR UPDATE OR DELETE ON people
    FOR EACH ROW EXECUTE FUNCTION dealctl_members_changed();
CREATE TRIGGER parties_members AFTER INSERT OR UPDATE OR DELETE ON parties
    FOR EACH ROW EXECUTE FUNCTION dealctl_members_changed();

CREATE FUNCTION dealctl_user_members_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE deals SET members_version = members_version + 1
    WHERE id IN (SELECT deal_id FROM people WHERE user_id = NEW.id);
    RETURN NULL;
END;
$$;

CREATE TRIGGER users_members AFTER UPDATE OF name, email, organization_id ON users
    FOR EACH ROW
    WHEN ((OLD.name, OLD.email, OLD.organization_id) IS DISTINCT FROM (NEW.name, NEW.email, NEW.organization_id))
    EXECUTE FUNCTION dealctl_user_members_changed();
