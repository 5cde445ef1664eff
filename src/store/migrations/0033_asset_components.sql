-- An asset's software components (what it is built from or runs on: a model's weights package, an
-- agent's framework), as the validated JSON list of {name, version?, purl?} the API took
-- (src/engine/bom.h validates it; the store moves the text and never reads it). NULL: none given.
-- The CycloneDX BOM lists them, and a threat-intel record whose vendor, product or package equals
-- one of their names is a known vulnerability of the asset.
ALTER TABLE assets ADD COLUMN components TEXT;
