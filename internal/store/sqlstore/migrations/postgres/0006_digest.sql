-- Daily digests (docs/server.md, "Daily digest").
--
-- A digest is an outbox row with no message behind it: message_id becomes
-- nullable and kind tells a digest from a message notification.
ALTER TABLE notifications ALTER COLUMN message_id DROP NOT NULL;
ALTER TABLE notifications ADD COLUMN kind TEXT NOT NULL DEFAULT 'message';

-- People who asked for no digest. A row, not a column on people, so that
-- re-seeding a person from a world file leaves an opt-out made with
-- `dealctl admin digest off` alone unless the file says otherwise.
CREATE TABLE digest_opt_outs (
    person_id    TEXT PRIMARY KEY REFERENCES people(id),
    opted_out_at BIGINT NOT NULL
);

-- One row per person per digest slot dealt with (sent, nothing to say,
-- or opted out); window_end is the slot's instant, where the next
-- digest's "new since" starts. The row is the lease: it is inserted, with
-- the person's row locked and their last slot checked, in the same
-- transaction that queues the outbox row, so however many instances run,
-- one of them sends a person's digest for a local day. day is that date
-- in the deal's time zone when the slot was taken.
CREATE TABLE digests (
    person_id       TEXT NOT NULL REFERENCES people(id),
    window_end      BIGINT NOT NULL,
    day             TEXT NOT NULL, -- YYYY-MM-DD
    deal_id         TEXT NOT NULL REFERENCES deals(id),
    window_start    BIGINT NOT NULL,
    outcome         TEXT NOT NULL, -- sent | empty | opted_out
    notification_id TEXT,
    created_at      BIGINT NOT NULL,
    PRIMARY KEY (person_id, window_end)
);

-- A digest reads a deal's messages posted in a window.
CREATE INDEX messages_posted ON messages(deal_id, posted_at);
