-- Application A's embedded user records, with the fields of the Airtable table "Users".
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  pin TEXT NOT NULL,
  role TEXT NOT NULL DEFAULT 'viewer',
  allowed_museums TEXT,
  allowed_channels TEXT
);
