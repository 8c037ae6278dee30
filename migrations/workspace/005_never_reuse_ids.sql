-- foreign_keys: off
-- Ids are never handed out twice: without AUTOINCREMENT, SQLite gives a new row the
-- highest id plus one, so deleting the newest member and adding another gave the newcomer
-- the deleted member's id, and tokens naming that id spoke for the newcomer. Every table
-- with an id is rebuilt with AUTOINCREMENT (SQLite's way to change a column's definition),
-- keeping its rows and ids. Members also get a random token_key that tokens and cookie
-- sessions carry, so they name one member for good whatever happens to ids, and the
-- database itself holds emails unique case-insensitively, whatever code writes them.

CREATE TABLE users_rebuilt (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  email TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('superadmin', 'manager', 'contributor')),
  avatar TEXT,
  job_title TEXT,
  phone TEXT,
  language TEXT NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'ar')),
  must_change_password INTEGER NOT NULL DEFAULT 0,
  profile_completed_at TEXT,
  onboarding_completed_at TEXT,
  token_version INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  token_key TEXT NOT NULL UNIQUE
);
INSERT INTO users_rebuilt
  SELECT id, name, email, password_hash, role, avatar, job_title, phone, language, must_change_password,
         profile_completed_at, onboarding_completed_at, token_version, created_at, lower(hex(randomblob(16)))
  FROM users;
DROP TABLE users;
ALTER TABLE users_rebuilt RENAME TO users;
CREATE UNIQUE INDEX users_email_lower ON users(lower(email));

CREATE TABLE brands_rebuilt (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL
);
INSERT INTO brands_rebuilt SELECT id, name, created_at FROM brands;
DROP TABLE brands;
ALTER TABLE brands_rebuilt RENAME TO brands;

CREATE TABLE campaigns_rebuilt (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  brand_id INTEGER NOT NULL REFERENCES brands(id),
  name TEXT NOT NULL,
  description TEXT,
  start_date TEXT,
  end_date TEXT,
  status TEXT NOT NULL,
  owner_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
INSERT INTO campaigns_rebuilt
  SELECT id, brand_id, name, description, start_date, end_date, status, owner_id, created_at, updated_at FROM campaigns;
DROP TABLE campaigns;
ALTER TABLE campaigns_rebuilt RENAME TO campaigns;
CREATE INDEX campaigns_brand ON campaigns(brand_id);
CREATE INDEX campaigns_owner ON campaigns(owner_id);

CREATE TABLE tracks_rebuilt (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  campaign_id INTEGER NOT NULL REFERENCES campaigns(id),
  name TEXT NOT NULL,
  channel TEXT,
  start_date TEXT,
  end_date TEXT,
  goal TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
INSERT INTO tracks_rebuilt
  SELECT id, campaign_id, name, channel, start_date, end_date, goal, created_at, updated_at FROM tracks;
DROP TABLE tracks;
ALTER TABLE tracks_rebuilt RENAME TO tracks;
CREATE INDEX tracks_campaign ON tracks(campaign_id);

CREATE TABLE posts_rebuilt (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  brand_id INTEGER NOT NULL REFERENCES brands(id),
  campaign_id INTEGER REFERENCES campaigns(id),
  title TEXT NOT NULL,
  caption TEXT,
  platform TEXT,
  status TEXT NOT NULL,
  scheduled_at TEXT,
  publication_url TEXT,
  owner_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
INSERT INTO posts_rebuilt
  SELECT id, brand_id, campaign_id, title, caption, platform, status, scheduled_at, publication_url, owner_id, created_at, updated_at
  FROM posts;
DROP TABLE posts;
ALTER TABLE posts_rebuilt RENAME TO posts;
CREATE INDEX posts_brand_created ON posts(brand_id, created_at);
CREATE INDEX posts_owner ON posts(owner_id);
CREATE INDEX posts_created ON posts(created_at, id);
CREATE INDEX posts_campaign_created ON posts(campaign_id, created_at);

CREATE TABLE assets_rebuilt (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  brand_id INTEGER NOT NULL REFERENCES brands(id),
  campaign_id INTEGER REFERENCES campaigns(id) ON DELETE SET NULL,
  post_id INTEGER REFERENCES posts(id) ON DELETE SET NULL,
  uploaded_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  name TEXT NOT NULL,
  mime_type TEXT NOT NULL,
  size INTEGER NOT NULL CHECK (size >= 0),
  file_key TEXT NOT NULL UNIQUE,
  thumbnail_key TEXT UNIQUE,
  created_at TEXT NOT NULL
);
INSERT INTO assets_rebuilt
  SELECT id, brand_id, campaign_id, post_id, uploaded_by, name, mime_type, size, file_key, thumbnail_key, created_at FROM assets;
DROP TABLE assets;
ALTER TABLE assets_rebuilt RENAME TO assets;
CREATE INDEX assets_brand_created ON assets(brand_id, created_at);
CREATE INDEX assets_created ON assets(created_at);
CREATE INDEX assets_campaign ON assets(campaign_id);
CREATE INDEX assets_post ON assets(post_id);
CREATE INDEX assets_uploader ON assets(uploaded_by);

CREATE TABLE projects_rebuilt (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  brand_id INTEGER NOT NULL REFERENCES brands(id),
  name TEXT NOT NULL,
  description TEXT,
  status TEXT NOT NULL,
  start_date TEXT,
  end_date TEXT,
  owner_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
INSERT INTO projects_rebuilt
  SELECT id, brand_id, name, description, status, start_date, end_date, owner_id, created_at, updated_at FROM projects;
DROP TABLE projects;
ALTER TABLE projects_rebuilt RENAME TO projects;
CREATE INDEX projects_brand_created ON projects(brand_id, created_at);
CREATE INDEX projects_owner ON projects(owner_id);

CREATE TABLE tasks_rebuilt (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  brand_id INTEGER NOT NULL REFERENCES brands(id),
  title TEXT NOT NULL,
  description TEXT,
  status TEXT NOT NULL CHECK (status IN ('todo', 'doing', 'done')),
  priority TEXT NOT NULL CHECK (priority IN ('low', 'medium', 'high', 'urgent')),
  due_date TEXT,
  visibility TEXT NOT NULL CHECK (visibility IN ('private', 'brand')),
  assignee_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  project_id INTEGER REFERENCES projects(id) ON DELETE SET NULL,
  campaign_id INTEGER REFERENCES campaigns(id) ON DELETE SET NULL,
  post_id INTEGER REFERENCES posts(id) ON DELETE SET NULL,
  owner_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
INSERT INTO tasks_rebuilt
  SELECT id, brand_id, title, description, status, priority, due_date, visibility, assignee_id, project_id, campaign_id, post_id,
         owner_id, created_at, updated_at
  FROM tasks;
DROP TABLE tasks;
ALTER TABLE tasks_rebuilt RENAME TO tasks;
CREATE INDEX tasks_brand_due ON tasks(brand_id, due_date);
CREATE INDEX tasks_assignee ON tasks(assignee_id);
CREATE INDEX tasks_owner ON tasks(owner_id);
CREATE INDEX tasks_project ON tasks(project_id);
CREATE INDEX tasks_campaign ON tasks(campaign_id);
CREATE INDEX tasks_post ON tasks(post_id);

CREATE TABLE budget_entries_rebuilt (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  brand_id INTEGER NOT NULL REFERENCES brands(id),
  campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('planned', 'spent')),
  category TEXT NOT NULL,
  description TEXT,
  amount INTEGER NOT NULL CHECK (amount >= 0),
  currency TEXT NOT NULL,
  entry_date TEXT NOT NULL,
  created_by INTEGER REFERENCES users(id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
INSERT INTO budget_entries_rebuilt
  SELECT id, brand_id, campaign_id, kind, category, description, amount, currency, entry_date, created_by, created_at, updated_at
  FROM budget_entries;
DROP TABLE budget_entries;
ALTER TABLE budget_entries_rebuilt RENAME TO budget_entries;
CREATE INDEX budget_entries_campaign ON budget_entries(campaign_id, category);
CREATE INDEX budget_entries_brand ON budget_entries(brand_id);
CREATE INDEX budget_entries_creator ON budget_entries(created_by);
