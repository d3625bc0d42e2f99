-- Fair claiming breaks ties between companies with as many attempts in flight by whose turn came
-- longest ago. Before, the tie went to the oldest due row: loops that freed at the same moment (two
-- calls to one slow receiver, answered together) all went back to the company with the deepest
-- backlog, round after round, while another company's fresh deliveries waited.
ALTER TABLE webhook_pacing ADD COLUMN last_claimed_at timestamptz;
