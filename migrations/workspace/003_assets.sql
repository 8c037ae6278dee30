-- Uploaded files. The bytes live in the file store under file_key (and thumbnail_key for
-- images); the row keeps what the uploader's computer called the file, cleaned. A deleted
-- campaign, post or member leaves the asset in its brand with the reference cleared.
CREATE TABLE assets (
  id INTEGER PRIMARY KEY,
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
CREATE INDEX assets_brand_created ON assets(brand_id, created_at);
CREATE INDEX assets_created ON assets(created_at);
CREATE INDEX assets_campaign ON assets(campaign_id);
CREATE INDEX assets_post ON assets(post_id);
CREATE INDEX assets_uploader ON assets(uploaded_by);

-- post_attachments.asset_id becomes a real foreign key. No asset could exist before this
-- table, so no attachment row can be kept. Without a cascade, deleting an asset that is
-- still attached fails: the asset feature detaches it first.
CREATE TABLE post_attachments_new (
  post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
  asset_id INTEGER NOT NULL REFERENCES assets(id),
  position INTEGER NOT NULL,
  PRIMARY KEY (post_id, asset_id)
);
DROP TABLE post_attachments;
ALTER TABLE post_attachments_new RENAME TO post_attachments;
CREATE INDEX post_attachments_asset ON post_attachments(asset_id);

-- The newest-first post lists read these indexes in order instead of sorting: every post
-- (a superadmin's list) and one campaign's posts.
CREATE INDEX posts_created ON posts(created_at, id);
DROP INDEX posts_campaign;
CREATE INDEX posts_campaign_created ON posts(campaign_id, created_at);
