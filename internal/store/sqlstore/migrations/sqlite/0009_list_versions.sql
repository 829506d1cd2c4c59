-- List versions: which deal version last changed what a request's list row
-- shows, so that a list is brought up to date by re-reading the rows that
-- changed since the version it was built at, and a client is sent only
-- those (docs/decisions.md, "Lists that cost what changed").
--
-- list_version is the deal's version (deals.version) of the last write
-- that changed the row as the owning side sees it; shared_list_version
-- the deal's shared_version of the last write the counterparty sees. An
-- internal note moves internal_updated_at alone, so it moves list_version
-- and never shared_list_version: the counterparty cannot learn of it, not
-- even as a changed row. Every write moves the deal's versions before it
-- changes rows (DB.writeTx, adminTx.touch), so the triggers read the new
-- ones.
ALTER TABLE requests ADD COLUMN list_version BIGINT NOT NULL DEFAULT 0;
ALTER TABLE requests ADD COLUMN shared_list_version BIGINT NOT NULL DEFAULT 0;
CREATE INDEX requests_list_version ON requests(deal_id, list_version);
CREATE INDEX requests_shared_list_version ON requests(deal_id, shared_list_version);

-- A deleted request leaves its id and the versions that deleted it.
CREATE TABLE request_tombstones (
    deal_id             TEXT NOT NULL,
    request_id          TEXT NOT NULL,
    list_version        BIGINT NOT NULL,
    shared_list_version BIGINT NOT NULL,
    PRIMARY KEY (deal_id, request_id)
);

CREATE TRIGGER requests_listed_insert AFTER INSERT ON requests BEGIN
    UPDATE requests SET (list_version, shared_list_version) = (SELECT version, shared_version FROM deals WHERE id = NEW.deal_id)
    WHERE id = NEW.id;
END;

-- Anything the counterparty sees of the row changed. A request moved to
-- another parent also marks the parent it left, whose place in a filtered
-- list (a section kept for its rows) may change with it.
CREATE TRIGGER requests_listed_update AFTER UPDATE ON requests
WHEN OLD.parent_id IS NOT NEW.parent_id OR OLD.kind IS NOT NEW.kind OR OLD.number IS NOT NEW.number
    OR OLD.title IS NOT NEW.title OR OLD.body IS NOT NEW.body OR OLD.status IS NOT NEW.status
    OR OLD.priority IS NOT NEW.priority OR OLD.category IS NOT NEW.category OR OLD.requester IS NOT NEW.requester
    OR OLD.due_date IS NOT NEW.due_date OR OLD.assignee_id IS NOT NEW.assignee_id
    OR OLD.status_changed_at IS NOT NEW.status_changed_at OR OLD.created_at IS NOT NEW.created_at
    OR OLD.updated_at IS NOT NEW.updated_at
BEGIN
    UPDATE requests SET (list_version, shared_list_version) = (SELECT version, shared_version FROM deals WHERE id = NEW.deal_id)
    WHERE id = NEW.id OR (id = OLD.parent_id AND OLD.parent_id IS NOT NEW.parent_id);
END;

-- Only what the owning side sees changed (an internal note, or a file on one).
CREATE TRIGGER requests_listed_internal AFTER UPDATE OF internal_updated_at ON requests
WHEN OLD.internal_updated_at IS NOT NEW.internal_updated_at
BEGIN
    UPDATE requests SET list_version = (SELECT version FROM deals WHERE id = NEW.deal_id) WHERE id = NEW.id;
END;

CREATE TRIGGER requests_listed_delete AFTER DELETE ON requests BEGIN
    INSERT INTO request_tombstones (deal_id, request_id, list_version, shared_list_version)
    VALUES (OLD.deal_id, OLD.id, (SELECT version FROM deals WHERE id = OLD.deal_id), (SELECT shared_version FROM deals WHERE id = OLD.deal_id))
    ON CONFLICT (deal_id, request_id) DO UPDATE SET list_version = excluded.list_version, shared_list_version = excluded.shared_list_version;
    UPDATE requests SET (list_version, shared_list_version) = (SELECT version, shared_version FROM deals WHERE id = OLD.deal_id)
    WHERE id = OLD.parent_id;
END;
