-- Projects and tasks carry an owner like campaigns and posts: the member who created
-- them, cleared when that member is deleted.
CREATE TABLE projects (
  id INTEGER PRIMARY KEY,
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
CREATE INDEX projects_brand_created ON projects(brand_id, created_at);
CREATE INDEX projects_owner ON projects(owner_id);

-- A private task is seen only by its owner, its assignee and superadmins.
CREATE TABLE tasks (
  id INTEGER PRIMARY KEY,
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
CREATE INDEX tasks_brand_due ON tasks(brand_id, due_date);
CREATE INDEX tasks_assignee ON tasks(assignee_id);
CREATE INDEX tasks_owner ON tasks(owner_id);
CREATE INDEX tasks_project ON tasks(project_id);
CREATE INDEX tasks_campaign ON tasks(campaign_id);
CREATE INDEX tasks_post ON tasks(post_id);

-- Money in integer minor units (cents, fils), one currency per campaign. An entry belongs
-- to its campaign and goes with it.
CREATE TABLE budget_entries (
  id INTEGER PRIMARY KEY,
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
CREATE INDEX budget_entries_campaign ON budget_entries(campaign_id, category);
CREATE INDEX budget_entries_brand ON budget_entries(brand_id);
CREATE INDEX budget_entries_creator ON budget_entries(created_by);
