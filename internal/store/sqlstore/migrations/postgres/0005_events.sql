-- Events: what happened on a deal, who did it and when, written in the
-- transaction of the write that did it (docs/decisions.md, "Events").
--
-- event_seq grows by one with every API or admin write on a deal (the
-- same UPDATE that moves version, which also locks the row), and with
-- every download recorded. Writers of one deal are serialised by that
-- row, so (seq, idx) orders events in commit order with no later commit
-- ever landing below a position a reader has already passed: a cursor on
-- it misses nothing. A plain sequence would not: a lower id taken by a
-- transaction that commits later would be skipped by a reader.
ALTER TABLE deals ADD COLUMN event_seq BIGINT NOT NULL DEFAULT 0;

CREATE TABLE events (
    deal_id    TEXT NOT NULL REFERENCES deals(id),
    seq        BIGINT NOT NULL,
    idx        INTEGER NOT NULL,
    type       TEXT NOT NULL,
    at         BIGINT NOT NULL,
    actor_id   TEXT,            -- a person of the deal; NULL for the system
    request_id TEXT,
    -- scope decides who reads the event: 'shared' everyone on the deal,
    -- 'party' only party_id's side (an internal note and its files),
    -- 'audit' only the owning side's project admins (downloads).
    scope      TEXT NOT NULL,
    party_id   TEXT,
    data       TEXT NOT NULL,   -- a JSON object, by type (docs/api.md)
    PRIMARY KEY (deal_id, seq, idx)
);
