-- dealctl schema v1 (SQLite). Times are Unix microseconds (BIGINT) and
-- dates 'YYYY-MM-DD' text, identical on both dialects so that one set of
-- queries serves both.
CREATE TABLE organizations (
    id   TEXT PRIMARY KEY,
    name TEXT NOT NULL
);

CREATE TABLE users (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations(id),
    name            TEXT,
    email           TEXT
);
CREATE UNIQUE INDEX users_email ON users(email) WHERE email IS NOT NULL;

CREATE TABLE deals (
    id       TEXT PRIMARY KEY,
    name     TEXT NOT NULL,
    codename TEXT NOT NULL,
    timezone TEXT NOT NULL,
    archived BOOLEAN NOT NULL DEFAULT FALSE,
    version  BIGINT NOT NULL DEFAULT 1,
    -- shared_version moves only with what both sides see: it is the
    -- counterparty's ETag base, so the owner's internal notes leave it.
    shared_version BIGINT NOT NULL DEFAULT 1
);

CREATE TABLE parties (
    id              TEXT PRIMARY KEY,
    deal_id         TEXT NOT NULL REFERENCES deals(id),
    side            TEXT NOT NULL,
    label           TEXT,
    is_owner        BOOLEAN NOT NULL,
    organization_id TEXT REFERENCES organizations(id),
    position        INTEGER NOT NULL
);
CREATE INDEX parties_deal ON parties(deal_id, position);

CREATE TABLE people (
    id               TEXT PRIMARY KEY,
    deal_id          TEXT NOT NULL REFERENCES deals(id),
    user_id          TEXT NOT NULL REFERENCES users(id),
    party_id         TEXT NOT NULL REFERENCES parties(id),
    access           TEXT NOT NULL,
    role             TEXT NOT NULL,
    is_project_admin BOOLEAN NOT NULL,
    joined           BOOLEAN NOT NULL,
    UNIQUE (deal_id, user_id)
);
CREATE INDEX people_user ON people(user_id);

CREATE TABLE requests (
    id                TEXT PRIMARY KEY,
    deal_id           TEXT NOT NULL REFERENCES deals(id),
    parent_id         TEXT REFERENCES requests(id),
    kind              TEXT NOT NULL,
    number            TEXT NOT NULL,
    title             TEXT NOT NULL,
    body              TEXT NOT NULL,
    status            TEXT NOT NULL,
    priority          TEXT NOT NULL,
    category          TEXT NOT NULL,
    requester         TEXT,
    due_date          TEXT,
    assignee_id       TEXT REFERENCES people(id),
    status_changed_at BIGINT,
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL,
    -- internal_updated_at moves with the owning side's internal messages,
    -- which updated_at must not reveal to the counterparty.
    internal_updated_at BIGINT,
    UNIQUE (deal_id, number)
);
CREATE INDEX requests_parent ON requests(deal_id, parent_id);

CREATE TABLE messages (
    id         TEXT PRIMARY KEY,
    deal_id    TEXT NOT NULL REFERENCES deals(id),
    request_id TEXT NOT NULL REFERENCES requests(id),
    party_id   TEXT NOT NULL REFERENCES parties(id),
    author_id  TEXT REFERENCES people(id),
    kind       TEXT NOT NULL,
    partial    BOOLEAN NOT NULL,
    internal   BOOLEAN NOT NULL,
    source     TEXT NOT NULL,
    text       TEXT NOT NULL,
    format     TEXT NOT NULL,
    posted_at  BIGINT NOT NULL,
    on_behalf  BOOLEAN NOT NULL
);
CREATE INDEX messages_request ON messages(deal_id, request_id, posted_at);

CREATE TABLE blobs (
    sha256 TEXT PRIMARY KEY,
    size   BIGINT NOT NULL,
    data   BLOB NOT NULL
);

CREATE TABLE files (
    version_id   TEXT PRIMARY KEY,
    deal_id      TEXT NOT NULL REFERENCES deals(id),
    request_id   TEXT NOT NULL REFERENCES requests(id),
    message_id   TEXT NOT NULL REFERENCES messages(id),
    position     INTEGER NOT NULL,
    kind         TEXT NOT NULL,
    name         TEXT,
    url          TEXT,
    size         BIGINT,
    content_type TEXT,
    sha256       TEXT REFERENCES blobs(sha256),
    scanned      BOOLEAN NOT NULL
);
CREATE INDEX files_request ON files(deal_id, request_id);
CREATE INDEX files_message ON files(message_id, position);

CREATE TABLE api_keys (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id),
    name       TEXT NOT NULL,
    prefix     TEXT NOT NULL,
    hash       BLOB NOT NULL,
    access     TEXT NOT NULL,
    deal_ids   TEXT,            -- JSON array; NULL: every deal of its owner
    expires_at BIGINT NOT NULL,
    revoked_at BIGINT,
    created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX api_keys_prefix ON api_keys(prefix);

CREATE TABLE notifications (
    id              TEXT PRIMARY KEY,
    deal_id         TEXT NOT NULL REFERENCES deals(id),
    message_id      TEXT NOT NULL REFERENCES messages(id),
    person_id       TEXT NOT NULL REFERENCES people(id),
    email           TEXT NOT NULL,
    subject         TEXT NOT NULL,
    body            TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    delivered_at    BIGINT,
    last_error      TEXT NOT NULL DEFAULT '',
    created_at      BIGINT NOT NULL
);
CREATE INDEX notifications_due ON notifications(next_attempt_at) WHERE delivered_at IS NULL;

CREATE TABLE settings (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- World-file local names (docs/world-file.md#format) resolved to ids, so that applying
-- a world twice updates rather than duplicates.
CREATE TABLE refs (
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    id   TEXT NOT NULL,
    PRIMARY KEY (kind, name)
);

CREATE TABLE rate_buckets (
    key        TEXT PRIMARY KEY,
    tokens     DOUBLE PRECISION NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE idempotency (
    key_id     TEXT NOT NULL,
    idem_key   TEXT NOT NULL,
    method     TEXT NOT NULL,
    path       TEXT NOT NULL,
    status     INTEGER NOT NULL,
    body       BLOB NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (key_id, idem_key)
);
