//! PostgreSQL, the store's second engine (issue #29): its schema so far.
//!
//! # Why it looks like this
//!
//! PostgreSQL runs beside SQLite, not instead of it: a community runs
//! `modctld` on one SQLite file with one command, and an operator who
//! serves many teams, or needs a second daemon to take over, moves to
//! PostgreSQL. Both engines run the same domain functions over the same
//! schema, so the schema is defined twice, once in each engine's types
//! (`migrations/sqlite/`, `migrations/postgres/`), under the same version
//! numbers. PostgreSQL's starts at V43, SQLite's version when PostgreSQL
//! came: one number, one schema, on either engine. The test below holds
//! the two equal (every table, column, type, nullability, primary key and
//! index), so a migration added to one folder and not the other fails it.
//!
//! Migrations run through refinery on the sync `postgres` client, as
//! SQLite's run through it on rusqlite.

mod embedded {
    refinery::embed_migrations!("../migrations/postgres");
}

/// Applies the PostgreSQL migrations not yet applied to the database
/// `client` is connected to, each in its own transaction.
pub fn migrate(client: &mut ::postgres::Client) -> Result<(), refinery::Error> {
    embedded::migrations::runner().run(client).map(drop)
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;
    use std::process::Command;

    use super::*;

    /// A column as both engines describe it: its type in SQLite's terms,
    /// whether it takes NULL, whether it is part of the primary key.
    #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
    struct Column {
        name: String,
        kind: &'static str,
        not_null: bool,
        primary_key: bool,
    }

    type Schema = BTreeMap<String, Vec<Column>>;

    /// The URL of a fresh database on the throw-away server
    /// `scripts/postgres` starts (once, for every test process), dropped
    /// again with the returned guard.
    struct TestDatabase {
        server: String,
        name: String,
    }

    impl TestDatabase {
        fn create() -> TestDatabase {
            let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/postgres");
            let out = Command::new(&script)
                .arg("start")
                .output()
                .expect("scripts/postgres runs");
            assert!(
                out.status.success(),
                "scripts/postgres start failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let server = String::from_utf8(out.stdout)
                .expect("a URL")
                .trim()
                .to_owned();
            // One name per test process and database made in it; a left-over
            // of a killed run under the same process id is replaced.
            static MADE: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
            let name = format!(
                "schema_{}_{}",
                std::process::id(),
                MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
            );
            let mut admin = ::postgres::Client::connect(&server, ::postgres::NoTls)
                .expect("the test server answers");
            // Two statements: several in one string run as one transaction,
            // which neither may run in.
            admin
                .batch_execute(&format!("DROP DATABASE IF EXISTS {name}"))
                .expect("no left-over database");
            admin
                .batch_execute(&format!("CREATE DATABASE {name}"))
                .expect("a database");
            TestDatabase { server, name }
        }

        fn url(&self) -> String {
            match self.server.rsplit_once('/') {
                Some((base, _)) => format!("{base}/{}", self.name),
                None => unreachable!("scripts/postgres prints postgres://host:port/db"),
            }
        }
    }

    impl Drop for TestDatabase {
        fn drop(&mut self) {
            if let Ok(mut admin) = ::postgres::Client::connect(&self.server, ::postgres::NoTls) {
                let _ = admin.batch_execute(&format!("DROP DATABASE IF EXISTS {}", self.name));
            }
        }
    }

    /// The schema of a SQLite database migrated to the newest version.
    fn sqlite_schema() -> (Schema, BTreeSet<String>) {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        super::super::embedded::migrations::runner()
            .run(&mut conn)
            .unwrap();
        let tables: Vec<String> = conn
            .prepare(
                "SELECT name FROM sqlite_master WHERE type = 'table'
                 AND name NOT LIKE 'sqlite_%' AND name <> 'refinery_schema_history'",
            )
            .unwrap()
            .query_map([], |row| row.get("name"))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let mut schema = Schema::new();
        for table in tables {
            let mut columns: Vec<Column> = conn
                .prepare(&format!("PRAGMA table_info({table})"))
                .unwrap()
                .query_map([], |row| {
                    let declared: String = row.get("type")?;
                    let primary_key = row.get::<_, i64>("pk")? > 0;
                    Ok(Column {
                        name: row.get("name")?,
                        kind: match declared.as_str() {
                            "INTEGER" => "integer",
                            "TEXT" => "text",
                            "BLOB" => "blob",
                            "REAL" => "real",
                            other => panic!("{table}: a column of type {other}"),
                        },
                        // SQLite lets a text primary key of a rowid table
                        // hold NULL (a legacy quirk no query uses);
                        // PostgreSQL never does: compared as NOT NULL.
                        not_null: row.get::<_, bool>("notnull")? || primary_key,
                        primary_key,
                    })
                })
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            columns.sort();
            schema.insert(table, columns);
        }
        let indexes = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
            .unwrap()
            .query_map([], |row| row.get("name"))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        (schema, indexes)
    }

    /// The schema of a PostgreSQL database migrated to the newest version.
    fn postgres_schema(client: &mut ::postgres::Client) -> (Schema, BTreeSet<String>) {
        let mut schema = Schema::new();
        let keys: BTreeSet<(String, String)> = client
            .query(
                "SELECT tc.table_name::text AS table_name, kcu.column_name::text AS column_name
                 FROM information_schema.table_constraints tc
                 JOIN information_schema.key_column_usage kcu
                   ON kcu.constraint_name = tc.constraint_name
                  AND kcu.table_schema = tc.table_schema
                 WHERE tc.constraint_type = 'PRIMARY KEY' AND tc.table_schema = 'public'",
                &[],
            )
            .unwrap()
            .into_iter()
            .map(|row| (row.get("table_name"), row.get("column_name")))
            .collect();
        for row in client
            .query(
                "SELECT table_name::text AS table_name, column_name::text AS column_name,
                        data_type::text AS data_type, is_nullable::text AS is_nullable
                 FROM information_schema.columns
                 WHERE table_schema = 'public' AND table_name <> 'refinery_schema_history'",
                &[],
            )
            .unwrap()
        {
            let table: String = row.get("table_name");
            let name: String = row.get("column_name");
            let kind: String = row.get("data_type");
            let nullable: String = row.get("is_nullable");
            let column = Column {
                primary_key: keys.contains(&(table.clone(), name.clone())),
                kind: match kind.as_str() {
                    "bigint" => "integer",
                    "text" => "text",
                    "bytea" => "blob",
                    "double precision" => "real",
                    other => panic!("{table}.{name}: a column of type {other}"),
                },
                name,
                not_null: nullable == "NO",
            };
            schema.entry(table).or_default().push(column);
        }
        for columns in schema.values_mut() {
            columns.sort();
        }
        let indexes = client
            .query(
                "SELECT i.indexname::text AS name FROM pg_indexes i
                 WHERE i.schemaname = 'public' AND NOT EXISTS (
                   SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)",
                &[],
            )
            .unwrap()
            .into_iter()
            .map(|row| row.get("name"))
            .collect();
        (schema, indexes)
    }

    #[test]
    fn both_engines_migrate_to_the_same_schema() {
        let database = TestDatabase::create();
        let mut client = ::postgres::Client::connect(&database.url(), ::postgres::NoTls)
            .expect("the test database answers");
        migrate(&mut client).expect("the PostgreSQL migrations apply");
        // A second run finds nothing to do.
        migrate(&mut client).expect("the PostgreSQL migrations are idempotent");

        let (sqlite, sqlite_indexes) = sqlite_schema();
        let (postgres, postgres_indexes) = postgres_schema(&mut client);
        let tables = |schema: &Schema| schema.keys().cloned().collect::<BTreeSet<_>>();
        assert_eq!(
            tables(&sqlite),
            tables(&postgres),
            "the engines have different tables: add the migration to both migrations/sqlite/ and migrations/postgres/"
        );
        for (table, columns) in &sqlite {
            assert_eq!(
                columns, &postgres[table],
                "table {table} differs between the engines (left SQLite, right PostgreSQL)"
            );
        }
        assert_eq!(
            sqlite_indexes, postgres_indexes,
            "the engines have different indexes (left SQLite, right PostgreSQL)"
        );

        let sqlite_version = super::super::embedded::migrations::runner()
            .get_migrations()
            .iter()
            .map(|m| m.version())
            .max();
        let postgres_version = embedded::migrations::runner()
            .get_migrations()
            .iter()
            .map(|m| m.version())
            .max();
        assert_eq!(
            sqlite_version, postgres_version,
            "the newest migration has different numbers on the engines"
        );
    }
}
