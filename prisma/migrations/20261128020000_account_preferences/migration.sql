-- Each person's preferences (issue 23: profile): the theme (the system's, or always light or
-- dark) and how times are written (the browser's locale, or always 12- or 24-hour).
ALTER TABLE "users"
  ADD COLUMN "theme" TEXT NOT NULL DEFAULT 'system' CONSTRAINT "users_theme_check" CHECK ("theme" IN ('system', 'light', 'dark')),
  ADD COLUMN "timeFormat" TEXT NOT NULL DEFAULT 'auto' CONSTRAINT "users_time_format_check" CHECK ("timeFormat" IN ('auto', '12h', '24h'));
