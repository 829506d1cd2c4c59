-- The outbox without foreign keys (docs/decisions.md, "Notifications'
-- rows").
--
-- A post inserts one notification for each person it tells, and each
-- row's three keys were checked by locking the deal, the message and the
-- person (FOR KEY SHARE). Posts on one deal run side by side, so the
-- people's rows were locked by several transactions at once: every lock
-- rewrote the row's header (a multixact, logged to the WAL), a third of
-- the database's CPU for a post with eight people told. Nothing ever
-- deletes a deal, a message or a person; a post's rows name the message
-- it writes, and the store looks each person up in the row's INSERT
-- without a lock (insertNotificationsPG), refusing one not on the deal.
ALTER TABLE notifications DROP CONSTRAINT IF EXISTS notifications_deal_id_fkey;
ALTER TABLE notifications DROP CONSTRAINT IF EXISTS notifications_message_id_fkey;
ALTER TABLE notifications DROP CONSTRAINT IF EXISTS notifications_person_id_fkey;
