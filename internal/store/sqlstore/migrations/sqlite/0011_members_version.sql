-- Members version: a number on each deal that moves whenever who is on
-- the deal, or what a write needs to know of them, changes (its parties,
-- its people, their users' names and e-mail addresses), so that a write
-- can check, with the deal's row it reads anyway, that the members it
-- holds are current instead of reading them again (docs/decisions.md,
-- "Writes on SQLite"). Triggers catch every writer: the API, `admin
-- apply`, the admin commands. An UPDATE that changes nothing (a world
-- file applied again) moves nothing.
ALTER TABLE deals ADD COLUMN members_version BIGINT NOT NULL DEFAULT 0;

CREATE TRIGGER people_members_insert AFTER INSERT ON people BEGIN
    UPDATE deals SET members_version = members_version + 1 WHERE id = NEW.deal_id;
END;
CREATE TRIGGER people_members_update AFTER UPDATE ON people
WHEN (OLD.deal_id, OLD.user_id, OLD.party_id, OLD.access, OLD.role, OLD.is_project_admin, OLD.joined)
    IS NOT (NEW.deal_id, NEW.user_id, NEW.party_id, NEW.access, NEW.role, NEW.is_project_admin, NEW.joined)
BEGIN
    UPDATE deals SET members_version = members_version + 1 WHERE id IN (OLD.deal_id, NEW.deal_id);
END;
CREATE TRIGGER people_members_delete AFTER DELETE ON people BEGIN
    UPDATE deals SET members_version = members_version + 1 WHERE id = OLD.deal_id;
END;

CREATE TRIGGER parties_members_insert AFTER INSERT ON parties BEGIN
    UPDATE deals SET members_version = members_version + 1 WHERE id = NEW.deal_id;
END;
CREATE TRIGGER parties_members_update AFTER UPDATE ON parties
WHEN (OLD.deal_id, OLD.side, OLD.label, OLD.is_owner, OLD.organization_id, OLD.position)
    IS NOT (NEW.deal_id, NEW.side, NEW.label, NEW.is_owner, NEW.organization_id, NEW.position)
BEGIN
    UPDATE deals SET members_version = members_version + 1 WHERE id IN (OLD.deal_id, NEW.deal_id);
END;
CREATE TRIGGER parties_members_delete AFTER DELETE ON parties BEGIN
    UPDATE deals SET members_version = members_version + 1 WHERE id = OLD.deal_id;
END;

CREATE TRIGGER users_members_update AFTER UPDATE OF name, email, organization_id ON users
WHEN (OLD.name, OLD.email, OLD.organization_id) IS NOT (NEW.name, NEW.email, NEW.organization_id)
BEGIN
    UPDATE deals SET members_version = members_version + 1 WHERE id IN (SELECT deal_id FROM people WHERE user_id = NEW.id);
END;
