-- Nothing to do on SQLite: this version makes PostgreSQL's search fold
-- fast (migrations/postgres/0010_search_fold.sql). SQLite's FTS5
-- tokenizer folds the text itself (unicode61 remove_diacritics 2), and
-- the versions are paired on both stores (TestMigrationsArePaired).
SELECT 1;
