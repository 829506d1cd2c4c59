-- Members version: a number on each deal that moves whenever who is on
-- the deal, or what a write needs to know of them, changes (its parties,
-- its people, their users' names and e-mail addresses), so that a write
-- can check, with the deal's row it reads anyway, that the members it
-- holds are current instead of reading them again (docs/decisions.md,
-- "Writes on SQLite"). Triggers catch every writer: the API, `admin
-- apply`, the admin commands.
ALTER TABLE deals ADD COLUMN members_version BIGINT NOT NULL DEFAULT 0;

CREATE TRIGGER people_members_insert AFTER INSERT ON people BEGIN
    UPDATE deals SET members_version = members_version + 1 WHERE id = NEW.deal_id;
END;
CREATE TRIGGER people_members_update AFTER UPDATE ON people BEGIN
    UPDATE deals SET members_version = members_version + 1 WHERE id IN (OLD.deal_id, NEW.deal_id);
END;
CREATE TRIGGER people_members_delete AFTER DELETE ON people BEGIN
    UPDATE deals SET members_version = members_version + 1 WHERE id = OLD.deal_id;
END;

CREATE TRIGGER parties_members_insert AFTER INSERT ON parties BEGIN
    UPDATE deals SET members_version = members_version + 1 WHERE id = NEW.deal_id;
END;
CREATE TRIGGER parties_members_update AFTER UPDATE ON parties BEGIN
    UPDATE deals SET members_version = members_version + 1 WHERE id IN (OLD.deal_id, NEW.deal_id);
END;
CREATE TRIGGER parties_members_delete AFTER DELETE ON parties BEGIN
    UPDATE deals SET members_version = members_version + 1 WHERE id = OLD.deal_id;
END;

CREATE TRIGGER users_members_update AFTER UPDATE OF name, email, organization_id ON users BEGIN
    UPDATE deals SET members_version = members_version + 1 WHERE id IN (SELECT deal_id FROM people WHERE user_id = NEW.id);
END;
