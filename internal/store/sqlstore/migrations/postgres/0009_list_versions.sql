-- List versions: which deal version last changed what a request's list row
-- shows, so that a list is brought up to date by re-reading the rows that
-- changed since the version it was built at, and a client is sent only
-- those (docs/decisions.md, "Lists that cost what changed"). The SQLite
-- migration of the same number says what each column holds; here BEFORE
-- triggers set them on the row being written, with no second UPDATE.
ALTER TABLE requests ADD COLUMN list_version BIGINT NOT NULL DEFAULT 0;
ALTER TABLE requests ADD COLUMN shared_list_version BIGINT NOT NULL DEFAULT 0;
CREATE INDEX requests_list_version ON requests(deal_id, list_version);
CREATE INDEX requests_shared_list_version ON requests(deal_id, shared_list_version);

CREATE TABLE request_tombstones (
    deal_id             TEXT NOT NULL,
    request_id          TEXT NOT NULL,
    list_version        BIGINT NOT NULL,
    shared_list_version BIGINT NOT NULL,
    PRIMARY KEY (deal_id, request_id)
);

CREATE FUNCTION dealctl_request_listed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    v  BIGINT;
    sv BIGINT;
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT version, shared_version INTO v, sv FROM deals WHERE id = NEW.deal_id;
        NEW.list_version := v;
        NEW.shared_list_version := sv;
    ELSIF (OLD.parent_id, OLD.kind, OLD.number, OLD.title, OLD.body, OLD.status, OLD.priority, OLD.category, OLD.requester,
           OLD.due_date, OLD.assignee_id, OLD.status_changed_at, OLD.created_at, OLD.updated_at)
          IS DISTINCT FROM
          (NEW.parent_id, NEW.kind, NEW.number, NEW.title, NEW.body, NEW.status, NEW.priority, NEW.category, NEW.requester,
           NEW.due_date, NEW.assignee_id, NEW.status_changed_at, NEW.created_at, NEW.updated_at) THEN
        SELECT version, shared_version INTO v, sv FROM deals WHERE id = NEW.deal_id;
        NEW.list_version := v;
        NEW.shared_list_version := sv;
    ELSIF OLD.internal_updated_at IS DISTINCT FROM NEW.internal_updated_at THEN
        SELECT version INTO v FROM deals WHERE id = NEW.deal_id;
        NEW.list_version := v;
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER requests_listed BEFORE INSERT OR UPDATE ON requests
    FOR EACH ROW EXECUTE FUNCTION dealctl_request_listed();

-- A request moved to another parent, or deleted, also marks the parent it
-- left; a deleted one leaves a tombstone.
CREATE FUNCTION dealctl_request_left() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    v  BIGINT;
    sv BIGINT;
BEGIN
    SELECT version, shared_version INTO v, sv FROM deals WHERE id = OLD.deal_id;
    IF TG_OP = 'DELETE' THEN
        INSERT INTO request_tombstones (deal_id, request_id, list_version, shared_list_version)
        VALUES (OLD.deal_id, OLD.id, v, sv)
        ON CONFLICT (deal_id, request_id) DO UPDATE SET list_version = excluded.list_version, shared_list_version = excluded.shared_list_version;
    END IF;
    IF OLD.parent_id IS NOT NULL THEN
        UPDATE requests SET list_version = v, shared_list_version = sv WHERE id = OLD.parent_id;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER requests_left_parent AFTER UPDATE OF parent_id ON requests
    FOR EACH ROW WHEN (OLD.parent_id IS DISTINCT FROM NEW.parent_id) EXECUTE FUNCTION dealctl_request_left();
CREATE TRIGGER requests_left AFTER DELETE ON requests
    FOR EACH ROW EXECUTE FUNCTION dealctl_request_left();
