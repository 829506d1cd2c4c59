-- File bytes stream into the database a chunk at a time (blob_chunks),
-- so that no file sits whole in memory and none meets SQLite's 1 GB
-- limit on one value. Blobs written before keep their bytes in
-- blobs.data and are read from there. blobs stays the catalog of every
-- content the files table names: storage says where its bytes are, 'db'
-- (here) or 'object' (the object store serve --files names; data is then
-- empty). A chunk's blob is the content's sha256, or 'pending:<id>'
-- while an upload is under way and its hash is not yet known.
ALTER TABLE blobs ADD COLUMN storage TEXT NOT NULL DEFAULT 'db';
CREATE TABLE blob_chunks (
    blob TEXT NOT NULL,
    seq  INTEGER NOT NULL,
    data BYTEA NOT NULL,
    PRIMARY KEY (blob, seq)
);
