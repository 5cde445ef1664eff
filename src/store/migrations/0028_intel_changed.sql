-- The intel records in the order they changed here (enriched_us, then id): STIX bundles and TAXII
-- collections page through it (src/store/store_intel.c store_intel_changed), from a point in time
-- (TAXII added_after) or after a record, as one range of this index with no sort step.
CREATE INDEX intel_changed_id ON intel_records (enriched_us, id);
