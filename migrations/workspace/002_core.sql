-- Application B's people, brands and content. Emails are stored lower-cased so that a
-- plain UNIQUE constraint makes them unique case-insensitively on any engine.
CREATE TABLE users (
  id INTEGER PRIMARY KEY,
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
  created_at TEXT NOT NULL
);

CREATE TABLE brands (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE user_brands (
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  brand_id INTEGER NOT NULL REFERENCES brands(id) ON DELETE CASCADE,
  PRIMARY KEY (user_id, brand_id)
);
CREATE INDEX user_brands_brand ON user_brands(brand_id);

-- Cookie sessions (express-session store). The user id is a column so that a password
-- change or a deleted account can end that user's sessions.
CREATE TABLE sessions (
  sid TEXT PRIMARY KEY,
  user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
  data TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);
CREATE INDEX sessions_expiry ON sessions(expires_at);

-- Brands are RESTRICTed: a brand that still holds content cannot be deleted.
CREATE TABLE campaigns (
  id INTEGER PRIMARY KEY,
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
CREATE INDEX campaigns_brand ON campaigns(brand_id);
CREATE INDEX campaigns_owner ON campaigns(owner_id);

CREATE TABLE tracks (
  id INTEGER PRIMARY KEY,
  campaign_id INTEGER NOT NULL REFERENCES campaigns(id),
  name TEXT NOT NULL,
  channel TEXT,
  start_date TEXT,
  end_date TEXT,
  goal TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX tracks_campaign ON tracks(campaign_id);

CREATE TABLE posts (
  id INTEGER PRIMARY KEY,
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
CREATE INDEX posts_brand_created ON posts(brand_id, created_at);
CREATE INDEX posts_campaign ON posts(campaign_id);
CREATE INDEX posts_owner ON posts(owner_id);

-- Asset ids in their order on the post; the assets table arrives with uploads.
CREATE TABLE post_attachments (
  post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
  asset_id INTEGER NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (post_id, asset_id)
);
CREATE INDEX post_attachments_asset ON post_attachments(asset_id);
