-- Daily visit figures: one row per date, museum, sales channel and visitor district.
-- The key is the natural one, so an import that repeats a row replaces it.
CREATE TABLE visits (
  date TEXT NOT NULL,
  museum TEXT NOT NULL,
  channel TEXT NOT NULL,
  district TEXT NOT NULL,
  visitors INTEGER NOT NULL CHECK (visitors >= 0),
  revenue REAL NOT NULL CHECK (revenue >= 0),
  PRIMARY KEY (date, museum, channel, district)
) WITHOUT ROWID;

-- Rows of an import in progress: filled while the upload streams in, then moved into
-- visits in one transaction, so a rejected file leaves visits untouched.
CREATE TABLE visits_import (
  date TEXT NOT NULL,
  museum TEXT NOT NULL,
  channel TEXT NOT NULL,
  district TEXT NOT NULL,
  visitors INTEGER NOT NULL,
  revenue REAL NOT NULL,
  PRIMARY KEY (date, museum, channel, district)
) WITHOUT ROWID;

-- Bumped by every write to visits, so each process can tell that its in-memory copy is stale.
CREATE TABLE visits_version (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  version INTEGER NOT NULL
);
INSERT INTO visits_version (id, version) VALUES (1, 0);

CREATE TABLE seasons (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  start_date TEXT NOT NULL,
  end_date TEXT NOT NULL,
  CHECK (end_date >= start_date)
);
