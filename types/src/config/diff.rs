//! Field-level differences between two configs, for audit entries and
//! import/clone reports.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{SectionChange, SectionName, Sections};

/// One changed field: its path and both values (`null` where absent).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FieldChange {
    /// Path from the config root, e.g. `strikes.ladder[1].minutes`.
    pub path: String,
    /// The value before.
    pub before: Value,
    /// The value after.
    pub after: Value,
}

/// Per-section field changes from `before` to `after`, sections in export
/// order; sections without changes are left out.
///
/// ```
/// use modctl_types::config::{Sections, SectionName, diff_sections};
/// let before = Sections::default();
/// let mut after = before.clone();
/// after.strikes.expiry_days = 90;
/// let changes = diff_sections(&before, &after);
/// assert_eq!(changes.len(), 1);
/// assert_eq!(changes[0].section, SectionName::Strikes);
/// assert_eq!(changes[0].changes[0].path, "strikes.expiry_days");
/// ```
pub fn diff_sections(before: &Sections, after: &Sections) -> Vec<SectionChange> {
    SectionName::ALL
        .into_iter()
        .filter_map(|name| {
            let mut changes = Vec::new();
            diff_values(
                name.as_str(),
                &before.section_json(name),
                &after.section_json(name),
                &mut changes,
            );
            (!changes.is_empty()).then_some(SectionChange {
                section: name,
                changes,
            })
        })
        .collect()
}

fn diff_values(path: &str, before: &Value, after: &Value, out: &mut Vec<FieldChange>) {
    match (before, after) {
        (Value::Object(b), Value::Object(a)) => {
            // Keys in the order the type declares them (serde keeps it), then
            // keys only the old value had.
            for (key, after_value) in a {
                let before_value = b.get(key).unwrap_or(&Value::Null);
                diff_values(&format!("{path}.{key}"), before_value, after_value, out);
            }
            for (key, before_value) in b.iter().filter(|(k, _)| !a.contains_key(*k)) {
                diff_values(&format!("{path}.{key}"), before_value, &Value::Null, out);
            }
        }
        (Value::Array(b), Value::Array(a)) if b.len() == a.len() => {
            for (i, (before_item, after_item)) in b.iter().zip(a).enumerate() {
                diff_values(&format!("{path}[{i}]"), before_item, after_item, out);
            }
        }
        (b, a) if b != a => out.push(FieldChange {
            path: path.to_owned(),
            before: b.clone(),
            after: a.clone(),
        }),
        _ => {}
    }
}
