-- Replies by e-mail, held until confirmed on the web (docs/mail.md).
--
-- One row per reply taken in. token is the notification the reply
-- address named: UNIQUE, so an address takes one reply, however many
-- instances receive mail. person_id and request_id are what the address
-- stood for; sender is the address the mail came from. confirm_hash is
-- the SHA-256 of the confirmation link's secret (the link is single use:
-- a decided row has state posted or discarded, and a link only acts on
-- a held one). message_id is the message a post made.
CREATE TABLE held_replies (
    id              TEXT PRIMARY KEY,
    token           TEXT NOT NULL UNIQUE,
    deal_id         TEXT NOT NULL REFERENCES deals(id),
    request_id      TEXT NOT NULL, -- no foreign key: a held reply does not stop the request being deleted (posting it then fails)
    person_id       TEXT NOT NULL REFERENCES people(id),
    sender          TEXT NOT NULL,
    subject         TEXT NOT NULL,
    text            TEXT NOT NULL,
    state           TEXT NOT NULL DEFAULT 'held', -- held | posted | discarded
    confirm_hash    TEXT NOT NULL,
    confirm_expires BIGINT NOT NULL,
    created_at      BIGINT NOT NULL,
    expires_at      BIGINT NOT NULL,
    decided_at      BIGINT,
    decided_by      TEXT REFERENCES people(id),
    on_behalf       BOOLEAN NOT NULL DEFAULT FALSE,
    message_id      TEXT REFERENCES messages(id)
);
CREATE INDEX held_replies_deal ON held_replies(deal_id, state);

-- A held reply's attachments, stored as blobs like any file's bytes
-- (by content, under their SHA-256), listed on the message when posted.
CREATE TABLE held_reply_files (
    held_id      TEXT NOT NULL REFERENCES held_replies(id),
    position     INTEGER NOT NULL,
    name         TEXT NOT NULL,
    content_type TEXT NOT NULL,
    sha256       TEXT NOT NULL,
    size         BIGINT NOT NULL,
    PRIMARY KEY (held_id, position)
);
