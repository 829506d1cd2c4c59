-- Full-text search (docs/api.md, "Search"; docs/decisions.md, "Search").
--
-- One FTS5 index per kind of text: a request's number, title, body and
-- requester; a message's text; a file's name or a link's label. Each is
-- an external-content table: it holds the index only, and reads the rows
-- it indexes by their rowid (which VACUUM INTO, the backup, keeps: a test
-- searches a backup). The triggers keep it in the transaction of every
-- write, whoever writes. Words are stemmed (porter), accents taken off
-- and every letter lowered (unicode61 remove_diacritics 2). Search ranks
-- by nothing the index counts (docs/decisions.md, "Search"), so the
-- tables keep no column sizes (columnsize=0): a write less per row.
CREATE VIRTUAL TABLE requests_search USING fts5(number, title, body, requester,
    content = 'requests', content_rowid = 'rowid', columnsize = 0, tokenize = 'porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE messages_search USING fts5(text,
    content = 'messages', content_rowid = 'rowid', columnsize = 0, tokenize = 'porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE files_search USING fts5(name,
    content = 'files', content_rowid = 'rowid', columnsize = 0, tokenize = 'porter unicode61 remove_diacritics 2');

-- The rows written before this migration.
INSERT INTO requests_search (requests_search) VALUES ('rebuild');
INSERT INTO messages_search (messages_search) VALUES ('rebuild');
INSERT INTO files_search (files_search) VALUES ('rebuild');

CREATE TRIGGER requests_search_insert AFTER INSERT ON requests BEGIN
    INSERT INTO requests_search (rowid, number, title, body, requester)
    VALUES (new.rowid, new.number, new.title, new.body, new.requester);
END;
CREATE TRIGGER requests_search_delete AFTER DELETE ON requests BEGIN
    INSERT INTO requests_search (requests_search, rowid, number, title, body, requester)
    VALUES ('delete', old.rowid, old.number, old.title, old.body, old.requester);
END;
-- Every message moves its request's update time: only a change of the
-- indexed text is indexed again.
CREATE TRIGGER requests_search_update AFTER UPDATE ON requests
WHEN old.number IS NOT new.number OR old.title IS NOT new.title
    OR old.body IS NOT new.body OR old.requester IS NOT new.requester
BEGIN
    INSERT INTO requests_search (requests_search, rowid, number, title, body, requester)
    VALUES ('delete', old.rowid, old.number, old.title, old.body, old.requester);
    INSERT INTO requests_search (rowid, number, title, body, requester)
    VALUES (new.rowid, new.number, new.title, new.body, new.requester);
END;

CREATE TRIGGER messages_search_insert AFTER INSERT ON messages BEGIN
    INSERT INTO messages_search (rowid, text) VALUES (new.rowid, new.text);
END;
CREATE TRIGGER messages_search_delete AFTER DELETE ON messages BEGIN
    INSERT INTO messages_search (messages_search, rowid, text) VALUES ('delete', old.rowid, old.text);
END;
CREATE TRIGGER messages_search_update AFTER UPDATE ON messages WHEN old.text IS NOT new.text BEGIN
    INSERT INTO messages_search (messages_search, rowid, text) VALUES ('delete', old.rowid, old.text);
    INSERT INTO messages_search (rowid, text) VALUES (new.rowid, new.text);
END;

CREATE TRIGGER files_search_insert AFTER INSERT ON files BEGIN
    INSERT INTO files_search (rowid, name) VALUES (new.rowid, new.name);
END;
CREATE TRIGGER files_search_delete AFTER DELETE ON files BEGIN
    INSERT INTO files_search (files_search, rowid, name) VALUES ('delete', old.rowid, old.name);
END;
CREATE TRIGGER files_search_update AFTER UPDATE ON files WHEN old.name IS NOT new.name BEGIN
    INSERT INTO files_search (files_search, rowid, name) VALUES ('delete', old.rowid, old.name);
    INSERT INTO files_search (rowid, name) VALUES (new.rowid, new.name);
END;
