-- Each recipient's queue of mail waiting to be sent, oldest first: a claim
-- takes, besides the oldest mail due, the newest mail that is first in its
-- recipient's queue, so a player whose move arrives during a burst of other
-- players' moves gets the answer in the next claim, not after the burst's
-- answers; mail to one recipient still leaves in order.
CREATE INDEX outbox_queues ON outbox (recipient, id) WHERE sent_at IS NULL AND failed_at IS NULL;
