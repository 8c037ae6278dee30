-- foreign_keys: off
-- Ids are never handed out twice (AUTOINCREMENT): a session or device cookie that names a
-- user by id must never come to name a later user. The database itself also holds PINs
-- unique, whatever code writes them.
CREATE TABLE users_rebuilt (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  pin TEXT NOT NULL UNIQUE,
  role TEXT NOT NULL DEFAULT 'viewer',
  allowed_museums TEXT,
  allowed_channels TEXT
);
INSERT INTO users_rebuilt SELECT id, name, pin, role, allowed_museums, allowed_channels FROM users;
DROP TABLE users;
ALTER TABLE users_rebuilt RENAME TO users;

CREATE TABLE seasons_rebuilt (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  start_date TEXT NOT NULL,
  end_date TEXT NOT NULL,
  CHECK (end_date >= start_date)
);
INSERT INTO seasons_rebuilt SELECT id, name, start_date, end_date FROM seasons;
DROP TABLE seasons;
ALTER TABLE seasons_rebuilt RENAME TO seasons;

-- The highest user id a store of user records has handed out, for stores (Airtable) that
-- number records themselves and would otherwise reuse a deleted record's id.
CREATE TABLE id_marks (
  name TEXT PRIMARY KEY,
  last_id INTEGER NOT NULL
);
