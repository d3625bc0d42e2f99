-- Overlap checks look up a person's entries by time span. A GiST index over
-- (company, person, span) answers "which entries of this person meet this span" directly,
-- instead of reading every entry of the person. A running entry spans to infinity.
CREATE EXTENSION IF NOT EXISTS btree_gist;
CREATE INDEX time_entries_person_span ON time_entries
  USING gist (company_id, person_id, tstzrange(start, coalesce("end", 'infinity'), '[)'))
  WHERE deleted_at IS NULL;
