-- Application B's schema starts in the next migration; this one only creates the database.
SELECT 1;
