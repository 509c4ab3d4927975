//! The one surface the store's domain modules run SQL through (issue #29).
//!
//! # Why it looks like this
//!
//! The store is to run on SQLite or PostgreSQL with the same domain
//! functions and no ORM: each module keeps its SQL text and its row mapping
//! ([`super::FromRow`]), and only this module knows which engine runs them.
//! So the modules see engine-neutral pieces only: a [`Sql`] (what a
//! [`super::Tx`] lends them) that runs a statement with [`Param`]s and hands
//! back [`Row`]s, whose columns are read by name into [`FromValue`] types.
//! The values are SQLite's storage classes ([`Value`]); the PostgreSQL engine
//! maps them onto a column's declared type (BIGINT/INT/BOOL/TEXT/BYTEA/DOUBLE).
//!
//! Today SQLite is the only engine, and this is a thin layer over rusqlite
//! that costs what rusqlite costs: statements go through the connection's
//! statement cache (`prepare_cached`) as they did (queries and
//! [`Sql::prepare`]; a one-off [`Sql::execute`] stays out of it, as
//! `Connection::execute` did), parameters are bound from a slice on
//! the stack ([`params!`]) without an allocation, rows are read in place
//! ([`Row::get_str`] borrows the row's text), and failures stay
//! [`DatabaseError`]s, conversions included, naming their column.
//!
//! SQL text keeps SQLite's numbered placeholders (`?1`); the PostgreSQL
//! engine is to rewrite them to `$1` once per statement. Where a statement
//! had a SQLite-only spelling with a standard one both engines accept, the
//! standard one is used (`ON CONFLICT DO NOTHING`, `COALESCE`).
//!
//! # SQLite-only, still (the PostgreSQL slice's to-do list)
//!
//! - Engine code on rusqlite connections, each marked "SQLite engine only":
//!   the writer and reader threads (`writer`, `readers`), opening,
//!   `configure` (PRAGMAs) and migrations, `Store::checkpoint` and the
//!   secrets' scrub (`VACUUM`, `PRAGMA wal_checkpoint`) in `mod.rs`; the
//!   key check and sealing at open (`secrets`, through [`Sql::sqlite`]);
//!   `backup`, `integrity` (`PRAGMA quick_check`, `sqlite_schema`),
//!   `change_watch` (`PRAGMA data_version`); the migration tests.
//! - [`Sql::last_insert_rowid`]: teams, config, webhooks, restore,
//!   automod_hits, simulator (messages, posts); `RETURNING id` on
//!   PostgreSQL (`RETURNING` itself both accept: activity, cases, lockdowns,
//!   restore, snapshots, verifications, live_events, simulator).
//! - `INSERT OR IGNORE` in `activity` (`remember_ids`, `LongIds`): left as
//!   it is because its header's measurement (no statement journal on the
//!   ingestion path) was made with it; `ON CONFLICT DO NOTHING` there needs
//!   that measurement again.
//! - `INDEXED BY` (automod_hits, cases/list, keys, ranking, webhooks):
//!   a planner hint PostgreSQL has no syntax for (drop it there).
//! - `COLLATE NOCASE` (keys): `lower(..)` or citext.
//! - Two-argument `MAX(a, b)` / `MIN(a, b)` (cases, keys, simulator/ids):
//!   `GREATEST` / `LEAST`.
//! - `ON CONFLICT DO UPDATE` without a conflict target (cases,
//!   case_rollup): PostgreSQL needs the target.
//! - `json_*` functions (webhooks), `substr` (cases, secrets).
//! - Booleans are integers 0/1 (`bool` binds as [`Value::Integer`]): the
//!   PostgreSQL engine binds them by the column's declared type.

use rusqlite::types::{ToSqlOutput, ValueRef};

use super::{DatabaseError, StoreError};

/// What the store's queries return: a domain refusal or a database failure.
pub(in crate::store) type Result<T> = std::result::Result<T, StoreError>;

/// A value bound to or read from a statement: SQLite's storage classes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value<'a> {
    /// SQL `NULL`.
    Null,
    /// A 64-bit integer (booleans are 0 and 1).
    Integer(i64),
    /// A double.
    Real(f64),
    /// UTF-8 text.
    Text(&'a str),
    /// Bytes.
    Blob(&'a [u8]),
}

impl Value<'_> {
    /// The storage class's name, for conversion errors.
    fn kind(&self) -> &'static str {
        match self {
            Value::Null => "NULL",
            Value::Integer(_) => "INTEGER",
            Value::Real(_) => "REAL",
            Value::Text(_) => "TEXT",
            Value::Blob(_) => "BLOB",
        }
    }
}

/// Why a value could not be bound or read as a Rust type.
#[derive(Debug, thiserror::Error)]
pub enum ConversionError {
    /// The value is of another storage class than the type reads.
    #[error("expected {expected}, found {found}")]
    Type {
        /// What the type reads.
        expected: &'static str,
        /// What the column held.
        found: &'static str,
    },
    /// An integer that does not fit the type.
    #[error("integer {0} out of range")]
    OutOfRange(i128),
    /// Text that is not UTF-8, or does not parse as the type.
    #[error("{0}")]
    Invalid(Box<dyn std::error::Error + Send + Sync>),
}

/// A Rust value bound to a statement's parameter.
pub trait Param {
    /// The value bound; integers that do not fit an `i64` fail.
    fn to_value(&self) -> std::result::Result<Value<'_>, ConversionError>;
}

/// A Rust type read from a column.
pub trait FromValue: Sized {
    /// `value` as this type.
    fn from_value(value: Value<'_>) -> std::result::Result<Self, ConversionError>;
}

fn mismatch<T>(
    expected: &'static str,
    found: Value<'_>,
) -> std::result::Result<T, ConversionError> {
    Err(ConversionError::Type {
        expected,
        found: found.kind(),
    })
}

impl Param for Value<'_> {
    fn to_value(&self) -> std::result::Result<Value<'_>, ConversionError> {
        Ok(*self)
    }
}

impl Param for i64 {
    fn to_value(&self) -> std::result::Result<Value<'_>, ConversionError> {
        Ok(Value::Integer(*self))
    }
}

impl FromValue for i64 {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, ConversionError> {
        match value {
            Value::Integer(n) => Ok(n),
            other => mismatch("INTEGER", other),
        }
    }
}

/// The integer types other than `i64`: bound and read through it, checked.
macro_rules! integers {
    ($($t:ty),*) => {$(
        impl Param for $t {
            fn to_value(&self) -> std::result::Result<Value<'_>, ConversionError> {
                i64::try_from(*self)
                    .map(Value::Integer)
                    .map_err(|_| ConversionError::OutOfRange(*self as i128))
            }
        }

        impl FromValue for $t {
            fn from_value(value: Value<'_>) -> std::result::Result<Self, ConversionError> {
                let n = i64::from_value(value)?;
                <$t>::try_from(n).map_err(|_| ConversionError::OutOfRange(n.into()))
            }
        }
    )*};
}

integers!(i32, u32, u64, usize, u8, u16, i16);

impl Param for bool {
    fn to_value(&self) -> std::result::Result<Value<'_>, ConversionError> {
        Ok(Value::Integer(i64::from(*self)))
    }
}

impl FromValue for bool {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, ConversionError> {
        Ok(i64::from_value(value)? != 0)
    }
}

impl Param for f64 {
    fn to_value(&self) -> std::result::Result<Value<'_>, ConversionError> {
        Ok(Value::Real(*self))
    }
}

impl FromValue for f64 {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, ConversionError> {
        match value {
            Value::Real(x) => Ok(x),
            // As rusqlite reads it: an integer column read as a double.
            Value::Integer(n) => Ok(n as f64),
            other => mismatch("REAL", other),
        }
    }
}

impl Param for str {
    fn to_value(&self) -> std::result::Result<Value<'_>, ConversionError> {
        Ok(Value::Text(self))
    }
}

impl Param for String {
    fn to_value(&self) -> std::result::Result<Value<'_>, ConversionError> {
        Ok(Value::Text(self))
    }
}

impl FromValue for String {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, ConversionError> {
        match value {
            Value::Text(s) => Ok(s.to_owned()),
            other => mismatch("TEXT", other),
        }
    }
}

impl Param for [u8] {
    fn to_value(&self) -> std::result::Result<Value<'_>, ConversionError> {
        Ok(Value::Blob(self))
    }
}

impl Param for Vec<u8> {
    fn to_value(&self) -> std::result::Result<Value<'_>, ConversionError> {
        Ok(Value::Blob(self))
    }
}

impl FromValue for Vec<u8> {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, ConversionError> {
        match value {
            Value::Blob(b) => Ok(b.to_vec()),
            other => mismatch("BLOB", other),
        }
    }
}

impl<T: Param> Param for Option<T> {
    fn to_value(&self) -> std::result::Result<Value<'_>, ConversionError> {
        match self {
            Some(value) => value.to_value(),
            None => Ok(Value::Null),
        }
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: Value<'_>) -> std::result::Result<Self, ConversionError> {
        match value {
            Value::Null => Ok(None),
            other => T::from_value(other).map(Some),
        }
    }
}

impl<T: Param + ?Sized> Param for &T {
    fn to_value(&self) -> std::result::Result<Value<'_>, ConversionError> {
        (**self).to_value()
    }
}

/// A statement's parameters: a slice built by [`params!`], or an array of
/// one type (`[server_id, user_id]`), bound in order to `?1`, `?2`, ...
pub trait Params {
    /// Calls `f` with the parameters as a slice (built on the stack).
    fn with<R>(&self, f: impl FnOnce(&[&dyn Param]) -> R) -> R;
}

impl Params for &[&dyn Param] {
    fn with<R>(&self, f: impl FnOnce(&[&dyn Param]) -> R) -> R {
        f(self)
    }
}

impl Params for [&dyn Param; 0] {
    fn with<R>(&self, f: impl FnOnce(&[&dyn Param]) -> R) -> R {
        f(&[])
    }
}

/// Arrays of one to sixteen parameters (as rusqlite's: the empty array is
/// the impl above, so that `[]` needs no type).
macro_rules! arrays {
    ($($n:literal)*) => {$(
        impl<T: Param> Params for [T; $n] {
            fn with<R>(&self, f: impl FnOnce(&[&dyn Param]) -> R) -> R {
                let refs: [&dyn Param; $n] = std::array::from_fn(|i| &self[i] as &dyn Param);
                f(&refs)
            }
        }
    )*};
}

arrays!(1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16);

/// A statement's parameters, in order: `params![server_id, user_id]` binds
/// `?1` and `?2`. A slice on the stack, as rusqlite's own macro builds.
macro_rules! params {
    () => {
        &[] as &[&dyn $crate::store::sql::Param]
    };
    ($($param:expr),+ $(,)?) => {
        &[$(&$param as &dyn $crate::store::sql::Param),+] as &[&dyn $crate::store::sql::Param]
    };
}
pub(crate) use params;

/// `value` as rusqlite binds it.
struct Bind<'a>(&'a dyn Param);

impl rusqlite::ToSql for Bind<'_> {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        let value = self
            .0
            .to_value()
            .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
        Ok(ToSqlOutput::Borrowed(match value {
            Value::Null => ValueRef::Null,
            Value::Integer(n) => ValueRef::Integer(n),
            Value::Real(x) => ValueRef::Real(x),
            Value::Text(s) => ValueRef::Text(s.as_bytes()),
            Value::Blob(b) => ValueRef::Blob(b),
        }))
    }
}

/// `params` as rusqlite takes them: an iterator over the slice, no copy.
fn bound<'a>(params: &'a [&'a dyn Param]) -> impl rusqlite::Params + 'a {
    rusqlite::params_from_iter(params.iter().map(|p| Bind(*p)))
}

/// A connection inside its transaction, as the store's modules use it: a
/// statement at a time, by its SQL text. Cheap to copy.
#[derive(Clone, Copy)]
pub(in crate::store) struct Sql<'t> {
    conn: &'t rusqlite::Connection,
}

impl<'t> Sql<'t> {
    /// `conn`, lent to the modules (the writer's and readers' transactions).
    pub(in crate::store) fn new(conn: &'t rusqlite::Connection) -> Self {
        Sql { conn }
    }

    /// SQLite engine only: the raw connection, for the engine's own code
    /// (backup, integrity checks, the scrub); never for a domain query.
    pub(in crate::store) fn sqlite(&self) -> &'t rusqlite::Connection {
        self.conn
    }

    /// `sql`, prepared once per connection (the statement cache): for a
    /// statement run many times in a loop, or read row by row.
    pub(in crate::store) fn prepare(&self, sql: &str) -> Result<Stmt<'t>> {
        Ok(Stmt {
            stmt: self.conn.prepare_cached(sql)?,
        })
    }

    /// Runs `sql` (one statement); how many rows it changed. Prepared for
    /// this run only, as rusqlite's `Connection::execute` always did: the
    /// one-off writes stay out of the statement cache (64 a connection), so
    /// they push no hot statement out of it; a statement run often or in a
    /// loop goes through [`Sql::prepare`].
    pub(in crate::store) fn execute(&self, sql: &str, params: impl Params) -> Result<usize> {
        Ok(params.with(|p| self.conn.execute(sql, bound(p)))?)
    }

    /// Runs several statements, without parameters (a module's setup).
    pub(in crate::store) fn execute_batch(&self, sql: &str) -> Result<()> {
        Ok(self.conn.execute_batch(sql)?)
    }

    /// The one row `sql` yields, read by `read`; no row is an error
    /// ([`DatabaseError::is_no_rows`]).
    pub(in crate::store) fn row<T>(
        &self,
        sql: &str,
        params: impl Params,
        read: impl FnOnce(&Row<'_>) -> Result<T>,
    ) -> Result<T> {
        self.prepare(sql)?.row(params, read)
    }

    /// The first row `sql` yields, if any, read by `read`.
    pub(in crate::store) fn opt_row<T>(
        &self,
        sql: &str,
        params: impl Params,
        read: impl FnOnce(&Row<'_>) -> Result<T>,
    ) -> Result<Option<T>> {
        self.prepare(sql)?.opt_row(params, read)
    }

    /// Every row `sql` yields, each read by `read`.
    pub(in crate::store) fn rows<T>(
        &self,
        sql: &str,
        params: impl Params,
        read: impl FnMut(&Row<'_>) -> Result<T>,
    ) -> Result<Vec<T>> {
        self.prepare(sql)?.rows(params, read)
    }

    /// Hands each row `sql` yields to `each`, as it is read (an export, a
    /// backup of rows: nothing collected).
    pub(in crate::store) fn for_each(
        &self,
        sql: &str,
        params: impl Params,
        each: impl FnMut(&Row<'_>) -> Result<()>,
    ) -> Result<()> {
        self.prepare(sql)?.for_each(params, each)
    }

    /// The row id of the last row inserted on this connection.
    pub(in crate::store) fn last_insert_rowid(&self) -> i64 {
        self.conn.last_insert_rowid()
    }
}

/// A prepared statement (from the connection's cache, back to it on drop).
pub(in crate::store) struct Stmt<'t> {
    stmt: rusqlite::CachedStatement<'t>,
}

impl Stmt<'_> {
    /// Runs the statement; how many rows it changed.
    pub(in crate::store) fn execute(&mut self, params: impl Params) -> Result<usize> {
        Ok(params.with(|p| self.stmt.execute(bound(p)))?)
    }

    /// Binds `value` to parameter `?index` (from 1) for the runs of
    /// [`Stmt::execute_bound`] that follow: a statement run for many rows
    /// binds what stays the same once.
    pub(in crate::store) fn bind(&mut self, index: usize, value: impl Param) -> Result<()> {
        Ok(self.stmt.raw_bind_parameter(index, Bind(&value))?)
    }

    /// Runs the statement with the parameters [`Stmt::bind`] bound; how many
    /// rows it changed.
    pub(in crate::store) fn execute_bound(&mut self) -> Result<usize> {
        Ok(self.stmt.raw_execute()?)
    }

    /// The one row the statement yields; no row is an error.
    pub(in crate::store) fn row<T>(
        &mut self,
        params: impl Params,
        read: impl FnOnce(&Row<'_>) -> Result<T>,
    ) -> Result<T> {
        match self.opt_row(params, read)? {
            Some(value) => Ok(value),
            None => Err(rusqlite::Error::QueryReturnedNoRows.into()),
        }
    }

    /// The first row the statement yields, if any.
    pub(in crate::store) fn opt_row<T>(
        &mut self,
        params: impl Params,
        read: impl FnOnce(&Row<'_>) -> Result<T>,
    ) -> Result<Option<T>> {
        params.with(|p| {
            let mut rows = self.stmt.query(bound(p))?;
            match rows.next()? {
                Some(row) => read(&Row { row }).map(Some),
                None => Ok(None),
            }
        })
    }

    /// Every row the statement yields, each read by `read`.
    pub(in crate::store) fn rows<T>(
        &mut self,
        params: impl Params,
        mut read: impl FnMut(&Row<'_>) -> Result<T>,
    ) -> Result<Vec<T>> {
        let mut found = Vec::new();
        self.for_each(params, |row| {
            found.push(read(row)?);
            Ok(())
        })?;
        Ok(found)
    }

    /// Hands each row to `each`, as it is read.
    pub(in crate::store) fn for_each(
        &mut self,
        params: impl Params,
        mut each: impl FnMut(&Row<'_>) -> Result<()>,
    ) -> Result<()> {
        params.with(|p| {
            let mut rows = self.stmt.query(bound(p))?;
            while let Some(row) = rows.next()? {
                each(&Row { row })?;
            }
            Ok(())
        })
    }

    /// The statement's rows, to step through one at a time
    /// ([`Rows::next`]): a read that stops early, or interleaves other
    /// statements between rows.
    pub(in crate::store) fn query(&mut self, params: impl Params) -> Result<Rows<'_>> {
        Ok(Rows {
            rows: params.with(|p| self.stmt.query(bound(p)))?,
        })
    }

    /// Hands each row to `each` until it answers `false` (a listing that
    /// stops after a page without a bound `LIMIT`).
    pub(in crate::store) fn while_each(
        &mut self,
        params: impl Params,
        mut each: impl FnMut(&Row<'_>) -> Result<bool>,
    ) -> Result<()> {
        params.with(|p| {
            let mut rows = self.stmt.query(bound(p))?;
            while let Some(row) = rows.next()? {
                if !each(&Row { row })? {
                    break;
                }
            }
            Ok(())
        })
    }

    /// Where column `name` is in this statement's rows, found once for
    /// reading many rows ([`Row::get`] with a [`Col`]).
    pub(in crate::store) fn column(&self, name: &str) -> Result<Col> {
        Ok(Col(self.stmt.column_index(name)?))
    }

    /// How many parameters the statement has.
    #[cfg(test)]
    pub(in crate::store) fn parameter_count(&self) -> usize {
        self.stmt.parameter_count()
    }

    /// SQLite engine only: how many times SQLite re-prepared the statement
    /// (tests pin down that listings keep theirs).
    #[cfg(test)]
    pub(in crate::store) fn reprepared(&self) -> i32 {
        self.stmt.get_status(rusqlite::StatementStatus::RePrepare)
    }
}

/// The rows of a statement being stepped through ([`Stmt::query`]).
pub(in crate::store) struct Rows<'s> {
    rows: rusqlite::Rows<'s>,
}

impl Rows<'_> {
    /// The next row, or `None` past the last.
    pub(in crate::store) fn next(&mut self) -> Result<Option<Row<'_>>> {
        Ok(self.rows.next()?.map(|row| Row { row }))
    }
}

/// A column of a statement's rows found by name ([`Stmt::column`],
/// [`Row::column`]): a listing finds its columns once, not for every row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::store) struct Col(usize);

/// How a column is named to [`Row::get`]: by its name, or where a lookup by
/// name found it.
pub(in crate::store) trait Column: Copy {
    /// Where the column is in `row`.
    fn at(self, row: &rusqlite::Row<'_>) -> rusqlite::Result<usize>;
}

impl Column for &str {
    fn at(self, row: &rusqlite::Row<'_>) -> rusqlite::Result<usize> {
        row.as_ref().column_index(self)
    }
}

impl Column for Col {
    fn at(self, _: &rusqlite::Row<'_>) -> rusqlite::Result<usize> {
        Ok(self.0)
    }
}

/// One row of a statement's result, read by column name.
#[derive(Clone, Copy)]
pub(in crate::store) struct Row<'r> {
    row: &'r rusqlite::Row<'r>,
}

impl<'r> Row<'r> {
    /// The value of `column` as SQLite holds it, and where the column is.
    fn value(&self, column: impl Column) -> Result<(usize, Value<'r>)> {
        // Found by name (or a lookup by name found it).
        let column = column.at(self.row)?;
        let value = match self.row.get_ref(column)? {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(n) => Value::Integer(n),
            ValueRef::Real(x) => Value::Real(x),
            ValueRef::Text(bytes) => Value::Text(
                std::str::from_utf8(bytes)
                    .map_err(|e| self.failure(column, ConversionError::Invalid(e.into())))?,
            ),
            ValueRef::Blob(b) => Value::Blob(b),
        };
        Ok((column, value))
    }

    /// A conversion failure of the column at `at`, naming it.
    fn failure(&self, column: usize, error: ConversionError) -> StoreError {
        let name = self
            .row
            .as_ref()
            .column_name(column)
            .unwrap_or("?")
            .to_owned();
        let found = self
            .row
            .get_ref(column)
            .map_or(rusqlite::types::Type::Null, |v| v.data_type());
        StoreError::Database(DatabaseError::conversion(column, found, name, error))
    }

    /// `column` as `T`.
    pub(in crate::store) fn get<T: FromValue>(&self, column: impl Column) -> Result<T> {
        let (at, value) = self.value(column)?;
        T::from_value(value).map_err(|e| self.failure(at, e))
    }

    /// `column`'s text, borrowed from the row (no allocation: the enum
    /// columns are parsed from it).
    pub(in crate::store) fn get_str(&self, column: impl Column) -> Result<&'r str> {
        match self.value(column)? {
            (_, Value::Text(s)) => Ok(s),
            (at, other) => Err(self.failure(at, mismatch::<()>("TEXT", other).unwrap_err())),
        }
    }

    /// `column`'s text, borrowed, or `None` for `NULL`.
    pub(in crate::store) fn get_opt_str(&self, column: impl Column) -> Result<Option<&'r str>> {
        match self.value(column)? {
            (_, Value::Null) => Ok(None),
            (_, Value::Text(s)) => Ok(Some(s)),
            (at, other) => Err(self.failure(at, mismatch::<()>("TEXT", other).unwrap_err())),
        }
    }

    /// `column` parsed from its text (the enum columns), read in place; text
    /// that does not parse is a conversion failure of that column.
    pub(in crate::store) fn parse<T>(&self, column: impl Column) -> Result<T>
    where
        T: std::str::FromStr,
        T::Err: Into<Box<dyn std::error::Error + Send + Sync>>,
    {
        let at = column.at(self.row)?;
        self.get_str(Col(at))?
            .parse()
            .map_err(|e: T::Err| self.failure(at, ConversionError::Invalid(e.into())))
    }

    /// A failure of `column` that the store's own reading found (text that
    /// is not what the column keeps), as a conversion failure of it.
    pub(in crate::store) fn invalid(
        &self,
        column: impl Column,
        error: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> StoreError {
        match column.at(self.row) {
            Ok(at) => self.failure(at, ConversionError::Invalid(error.into())),
            Err(e) => e.into(),
        }
    }

    /// Where column `name` is in this row's statement.
    pub(in crate::store) fn column(&self, name: &str) -> Result<Col> {
        Ok(Col(name.at(self.row)?))
    }

    /// The value of a one-column row (`SELECT COUNT(*) ...`, a single
    /// value): the one read of a row by index the store makes. A query of
    /// more columns reads them by name; debug builds check that this one's
    /// has one.
    pub(in crate::store) fn scalar<T: FromValue>(&self) -> Result<T> {
        debug_assert_eq!(
            self.row.as_ref().column_count(),
            1,
            "a scalar read of a row of several columns: read them by name"
        );
        self.get(Col(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conn() -> rusqlite::Connection {
        let conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB);
             INSERT INTO t VALUES (7, 1.5, 'seven', x'0102'), (NULL, NULL, NULL, NULL);",
        )
        .unwrap();
        conn
    }

    #[test]
    fn values_round_trip_through_parameters() {
        let conn = conn();
        let sql = Sql::new(&conn);
        let blob: &[u8] = &[9, 8];
        let none: Option<i64> = None;
        let owned = String::from("owned");
        let n = sql
            .execute(
                "INSERT INTO t VALUES (?1, ?2, ?3, ?4), (?5, NULL, ?6, NULL), (?7, NULL, ?8, NULL)",
                params![42u64, 2.5, "x", blob, true, owned, none, &owned],
            )
            .unwrap();
        assert_eq!(n, 3);
        let row = sql
            .row("SELECT i, r, s, b FROM t WHERE i = ?1", [42], |r| {
                Ok((
                    r.get::<u32>("i")?,
                    r.get::<f64>("r")?,
                    r.get_str("s")?.to_owned(),
                    r.get::<Vec<u8>>("b")?,
                ))
            })
            .unwrap();
        assert_eq!(row, (42, 2.5, "x".to_owned(), vec![9, 8]));
        let flag: bool = sql
            .row(
                "SELECT i FROM t WHERE s = 'owned' AND i IS NOT NULL",
                [],
                |r| r.scalar(),
            )
            .unwrap();
        assert!(flag);
    }

    #[test]
    fn missing_rows_nulls_and_conversions_are_told_apart() {
        let conn = conn();
        let sql = Sql::new(&conn);
        let none = sql
            .opt_row("SELECT i FROM t WHERE i = ?1", [1], |r| r.scalar::<i64>())
            .unwrap();
        assert_eq!(none, None);
        let Err(StoreError::Database(e)) =
            sql.row("SELECT i FROM t WHERE i = ?1", [1], |r| r.scalar::<i64>())
        else {
            panic!("no row is an error");
        };
        assert!(e.is_no_rows());
        let nulls = sql
            .rows("SELECT i, s FROM t ORDER BY i", [], |r| {
                Ok((
                    r.get::<Option<i64>>("i")?,
                    r.get_opt_str("s")?.map(str::len),
                ))
            })
            .unwrap();
        assert_eq!(nulls, vec![(None, None), (Some(7), Some(5))]);
        let wrong = sql
            .row("SELECT s FROM t WHERE i = 7", params![], |r| {
                r.get::<i64>("s")
            })
            .unwrap_err()
            .to_string();
        assert!(wrong.contains("`s`"), "{wrong}");
        let parsed = sql
            .row("SELECT s FROM t WHERE i = 7", params![], |r| {
                r.parse::<i64>("s")
            })
            .unwrap_err()
            .to_string();
        assert!(parsed.contains("`s`"), "{parsed}");
        let too_big = sql
            .execute("INSERT INTO t (i) VALUES (?1)", [u64::MAX])
            .unwrap_err();
        assert!(matches!(too_big, StoreError::Database(_)));
    }
}
