//! A quick reader and writer for one case's `[[case]]` table in the form
//! the reasoner writes: `[table]` and `[[array of tables]]` headers (a
//! case's profile is `[[case.trial]]` tables, each with its
//! `[case.trial.params]`), `key = value` lines of bare keys and one-line
//! values (basic strings without escapes, numbers, booleans, arrays of
//! those), blank and comment lines.
//!
//! The `toml` crate took about 35 µs per case to read one and as long to
//! write it, most of a 100,000-case base's load (issue 44); this takes a
//! few. It is only a fast path: on anything outside that form it answers
//! `None` (reading) or `false` (writing), and the caller hands the case to
//! the `toml` crate, so what is read or written never differs from what
//! `toml` would make of it (tests compare the two).

use serde::de::{self, IntoDeserializer, Visitor};
use serde::ser::{self, Serialize};
use serde::Deserialize;
use std::borrow::Cow;

/// A table's entries, in order.
type Entries<'a> = Vec<(Cow<'a, str>, Node<'a>)>;

use super::Case;

/// A TOML value of the form above; a table keeps its keys in file order
/// (the parameters of a case are written back in the order read).
#[derive(Clone, Debug, PartialEq)]
enum Node<'a> {
    /// A string, borrowed from the text read or owned when serialized.
    Str(Cow<'a, str>),
    Int(i64),
    Float(f64),
    Bool(bool),
    Array(Vec<Node<'a>>),
    Table(Vec<(Cow<'a, str>, Node<'a>)>),
}

/// The case one `[[case]]` table (its header the first line) holds, or
/// `None` when the text is not of the quick form or not a valid case.
pub fn read_case(text: &str) -> Option<Case> {
    let mut lines = text.lines();
    if lines.next()? != "[[case]]" {
        return None;
    }
    let mut root = Vec::new();
    // The path of the table the lines go into, below the case's own.
    let mut path: Vec<&str> = Vec::new();
    for line in lines {
        let line = line.trim_matches([' ', '\t']);
        if line.is_empty() || is_plain_comment(line) {
            continue;
        }
        if let Some(header) = line.strip_prefix('[') {
            let (array, inner) = match header.strip_prefix('[') {
                Some(h) => (true, h.strip_suffix("]]")?),
                None => (false, header.strip_suffix(']')?),
            };
            path = table_path(inner)?;
            match array {
                true => push_table(&mut root, &path)?,
                false => open_table(&mut root, &path)?,
            }
            continue;
        }
        let (key, value) = line.split_once('=')?;
        let key = bare_key(key.trim_matches([' ', '\t']))?;
        let value = read_value(value.trim_matches([' ', '\t']))?;
        let table = table_at(&mut root, &path)?;
        if table.iter().any(|(k, _)| k == key) {
            return None;
        }
        table.push((Cow::Borrowed(key), value));
    }
    Case::deserialize(Node::Table(root)).ok()
}

/// Whether a line is a comment TOML accepts as it is (no control
/// characters but tabs).
fn is_plain_comment(line: &str) -> bool {
    line.starts_with('#') && !line.bytes().any(|b| (b < 0x20 && b != b'\t') || b == 0x7f)
}

/// The keys after `case` of a header `[case.a.b]` (its brackets taken off).
fn table_path(inner: &str) -> Option<Vec<&str>> {
    let mut keys = inner.split('.');
    if keys.next()? != "case" {
        return None;
    }
    let path: Vec<&str> = keys.map(bare_key).collect::<Option<_>>()?;
    (!path.is_empty()).then_some(path)
}

/// A new table at `path`, whose parent must be open already; `None` when
/// that table or a key of that name exists (TOML refuses a second one).
fn open_table<'a>(root: &mut Entries<'a>, path: &[&'a str]) -> Option<()> {
    let (last, parent) = path.split_last()?;
    let parent = table_at(root, parent)?;
    if parent.iter().any(|(k, _)| k == last) {
        return None;
    }
    parent.push((Cow::Borrowed(*last), Node::Table(Vec::new())));
    Some(())
}

/// A new table appended to the array of tables at `path` (`[[case.trial]]`),
/// the array made by the first such header; `None` when a key of that name
/// holds anything else (TOML refuses to extend a static array, `trial = []`).
fn push_table<'a>(root: &mut Entries<'a>, path: &[&'a str]) -> Option<()> {
    let (last, parent) = path.split_last()?;
    let parent = table_at(root, parent)?;
    match parent.iter_mut().find(|(k, _)| k == last) {
        None => parent.push((
            Cow::Borrowed(*last),
            Node::Array(vec![Node::Table(Vec::new())]),
        )),
        Some((_, node)) if is_table_array(node) => {
            let Node::Array(items) = node else {
                return None;
            };
            items.push(Node::Table(Vec::new()));
        }
        Some(_) => return None,
    }
    Some(())
}

/// Whether `node` is an array of tables: one that only `[[...]]` headers
/// make in the quick form (it reads no inline tables).
fn is_table_array(node: &Node) -> bool {
    matches!(node, Node::Array(items)
        if !items.is_empty() && items.iter().all(|i| matches!(i, Node::Table(_))))
}

/// The table at `path` below `root`; through an array of tables, its last
/// table (as TOML reads `[case.trial.params]` after `[[case.trial]]`).
fn table_at<'t, 'a>(mut table: &'t mut Entries<'a>, path: &[&str]) -> Option<&'t mut Entries<'a>> {
    for key in path {
        match table.iter_mut().find(|(k, _)| k == key) {
            Some((_, Node::Table(t))) => table = t,
            Some((_, Node::Array(items))) => match items.last_mut() {
                Some(Node::Table(t)) => table = t,
                _ => return None,
            },
            _ => return None,
        }
    }
    Some(table)
}

/// `key` if it is a bare TOML key (letters, digits, `_`, `-`).
fn bare_key(key: &str) -> Option<&str> {
    let bare = !key.is_empty()
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    bare.then_some(key)
}

/// A one-line value: a string, number or boolean, or an array of those.
fn read_value(text: &str) -> Option<Node<'_>> {
    if let Some(inner) = text.strip_prefix('[') {
        let inner = inner.strip_suffix(']')?.trim_matches([' ', '\t']);
        if inner.is_empty() {
            return Some(Node::Array(Vec::new()));
        }
        // A string holding a comma is not of the quick form: `split` would
        // cut it, and the piece then fails to read.
        let items = inner
            .split(',')
            .map(|v| read_scalar(v.trim_matches([' ', '\t'])));
        return items.collect::<Option<_>>().map(Node::Array);
    }
    read_scalar(text)
}

/// A string without escapes, a boolean, a decimal integer or a float.
fn read_scalar(text: &str) -> Option<Node<'_>> {
    if let Some(s) = text.strip_prefix('"') {
        let s = s.strip_suffix('"')?;
        let plain = !s
            .bytes()
            .any(|b| b == b'"' || b == b'\\' || (b < 0x20 && b != b'\t') || b == 0x7f);
        return plain.then_some(Node::Str(Cow::Borrowed(s)));
    }
    match text {
        "true" => return Some(Node::Bool(true)),
        "false" => return Some(Node::Bool(false)),
        _ => {}
    }
    let (float, ok) = number_shape(text);
    if !ok {
        None
    } else if float {
        text.parse().ok().map(Node::Float)
    } else {
        text.parse().ok().map(Node::Int)
    }
}

/// Whether `text` is a TOML float (rather than an integer), and whether it
/// is a number of the form `-12`, `3.25` or `-1.5e-7` at all (no `_`, no
/// leading zeros, digits both sides of the point).
fn number_shape(text: &str) -> (bool, bool) {
    let b = text.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    let start = i;
    let int = digits(&mut i);
    let mut ok = int > 0 && !(int > 1 && b[start] == b'0');
    let mut float = false;
    if b.get(i) == Some(&b'.') {
        i += 1;
        float = true;
        ok &= digits(&mut i) > 0;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        float = true;
        i += usize::from(matches!(b.get(i), Some(b'+' | b'-')));
        ok &= digits(&mut i) > 0;
    }
    (float, ok && i == b.len())
}

/// Appends `case` as its `[[case]]` table, as `toml` writes it; `false`
/// (and `out` unchanged) when it holds anything outside the quick form.
pub fn write_case(case: &Case, out: &mut String) -> bool {
    let Ok(Some(Node::Table(table))) = case.serialize(NodeWriter) else {
        return false;
    };
    let start = out.len();
    out.push_str("[[case]]\n");
    if write_table(&table, "case", out) {
        true
    } else {
        out.truncate(start);
        false
    }
}

/// The key/value lines of `table`, then its tables and arrays of tables
/// under their headers below `path`, in the order of their keys, as `toml`
/// orders them.
fn write_table(table: &Entries, path: &str, out: &mut String) -> bool {
    let nested = |v: &Node| matches!(v, Node::Table(_)) || is_table_array(v);
    if table.iter().all(|(_, v)| nested(v)) && !table.is_empty() {
        // `toml` may leave such a table's header out: not the quick form.
        return false;
    }
    for (key, value) in table {
        if nested(value) {
            continue;
        }
        if bare_key(key).is_none() {
            return false;
        }
        out.push_str(key);
        out.push_str(" = ");
        if !write_value(value, out) {
            return false;
        }
        out.push('\n');
    }
    for (key, value) in table {
        let tables: Vec<&Entries> = match value {
            Node::Table(inner) => vec![inner],
            Node::Array(items) if is_table_array(value) => items
                .iter()
                .filter_map(|i| match i {
                    Node::Table(t) => Some(t),
                    _ => None,
                })
                .collect(),
            _ => continue,
        };
        if bare_key(key).is_none() {
            return false;
        }
        let path = format!("{path}.{key}");
        let header = match value {
            Node::Table(_) => format!("\n[{path}]\n"),
            _ => format!("\n[[{path}]]\n"),
        };
        for inner in tables {
            out.push_str(&header);
            if !write_table(inner, &path, out) {
                return false;
            }
        }
    }
    true
}

/// One value on its line; `false` for a form the quick writer leaves to
/// `toml` (a string needing escapes or quotes of another kind, a nested
/// array, a number that is not finite).
fn write_value(value: &Node, out: &mut String) -> bool {
    use std::fmt::Write;
    match value {
        Node::Str(s) => {
            let plain = !s
                .bytes()
                .any(|b| b == b'"' || b == b'\\' || b < 0x20 || b == 0x7f);
            if plain {
                out.push('"');
                out.push_str(s);
                out.push('"');
            }
            plain
        }
        Node::Int(i) => write!(out, "{i}").is_ok(),
        // As toml_write writes a finite float: a whole one with `.0`.
        Node::Float(f) if !f.is_finite() => false,
        Node::Float(f) if *f == 0.0 => {
            out.push_str(if f.is_sign_negative() { "-0.0" } else { "0.0" });
            true
        }
        Node::Float(f) if f % 1.0 == 0.0 => write!(out, "{f}.0").is_ok(),
        Node::Float(f) => write!(out, "{f}").is_ok(),
        Node::Bool(b) => {
            out.push_str(if *b { "true" } else { "false" });
            true
        }
        Node::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                if matches!(item, Node::Array(_) | Node::Table(_)) || !write_value(item, out) {
                    return false;
                }
            }
            out.push(']');
            true
        }
        Node::Table(_) => false,
    }
}

/// A value the quick form cannot hold, in either direction; only ever
/// seen by this module, which then leaves the case to `toml`.
#[derive(Debug)]
struct Unsupported(String);

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unsupported {}

impl de::Error for Unsupported {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Unsupported(msg.to_string())
    }
}

impl ser::Error for Unsupported {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Unsupported(msg.to_string())
    }
}

/// Serde reads a case from a [`Node`] as it would from `toml`'s values:
/// integers as `i64`, floats as `f64`, strings also as unit enum variants,
/// any value as `Some` of itself.
impl<'de> de::Deserializer<'de> for Node<'de> {
    type Error = Unsupported;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Unsupported> {
        match self {
            Node::Str(Cow::Borrowed(s)) => v.visit_borrowed_str(s),
            Node::Str(Cow::Owned(s)) => v.visit_string(s),
            Node::Int(i) => v.visit_i64(i),
            Node::Float(f) => v.visit_f64(f),
            Node::Bool(b) => v.visit_bool(b),
            Node::Array(items) => v.visit_seq(de::value::SeqDeserializer::new(items.into_iter())),
            Node::Table(t) => v.visit_map(de::value::MapDeserializer::new(t.into_iter())),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Unsupported> {
        v.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value, Unsupported> {
        v.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Unsupported> {
        match self {
            Node::Str(s) => v.visit_enum(s.into_deserializer()),
            _ => Err(de::Error::custom("an enum is a string here")),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

impl<'de> IntoDeserializer<'de, Unsupported> for Node<'de> {
    type Deserializer = Node<'de>;
    fn into_deserializer(self) -> Node<'de> {
        self
    }
}

/// Serializes a value into a [`Node`]; `None` for a value left out (a
/// `None` field, which `toml` omits too).
struct NodeWriter;

/// The elements or entries of an array or table being serialized.
struct Items {
    array: Vec<Node<'static>>,
    table: Entries<'static>,
    key: Option<Cow<'static, str>>,
}

impl Items {
    fn new() -> Items {
        Items {
            array: Vec::new(),
            table: Vec::new(),
            key: None,
        }
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        let node = value
            .serialize(NodeWriter)?
            .ok_or_else(|| ser::Error::custom("an array element left out"))?;
        self.array.push(node);
        Ok(())
    }

    fn entry<T: Serialize + ?Sized>(
        &mut self,
        key: Cow<'static, str>,
        value: &T,
    ) -> Result<(), Unsupported> {
        if let Some(node) = value.serialize(NodeWriter)? {
            self.table.push((key, node));
        }
        Ok(())
    }
}

fn unsupported<T>(what: &str) -> Result<T, Unsupported> {
    Err(ser::Error::custom(format!("{what} is left to toml")))
}

impl ser::Serializer for NodeWriter {
    type Ok = Option<Node<'static>>;
    type Error = Unsupported;
    type SerializeSeq = Items;
    type SerializeTuple = Items;
    type SerializeTupleStruct = Items;
    type SerializeTupleVariant = ser::Impossible<Option<Node<'static>>, Unsupported>;
    type SerializeMap = Items;
    type SerializeStruct = Items;
    type SerializeStructVariant = ser::Impossible<Option<Node<'static>>, Unsupported>;

    fn serialize_bool(self, v: bool) -> Result<Option<Node<'static>>, Unsupported> {
        Ok(Some(Node::Bool(v)))
    }
    fn serialize_i8(self, v: i8) -> Result<Option<Node<'static>>, Unsupported> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<Option<Node<'static>>, Unsupported> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<Option<Node<'static>>, Unsupported> {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<Option<Node<'static>>, Unsupported> {
        Ok(Some(Node::Int(v)))
    }
    fn serialize_u8(self, v: u8) -> Result<Option<Node<'static>>, Unsupported> {
        self.serialize_i64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<Option<Node<'static>>, Unsupported> {
        self.serialize_i64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<Option<Node<'static>>, Unsupported> {
        self.serialize_i64(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<Option<Node<'static>>, Unsupported> {
        i64::try_from(v).map_or_else(|_| unsupported("a u64 past i64"), |v| self.serialize_i64(v))
    }
    fn serialize_f32(self, v: f32) -> Result<Option<Node<'static>>, Unsupported> {
        self.serialize_f64(v.into())
    }
    fn serialize_f64(self, v: f64) -> Result<Option<Node<'static>>, Unsupported> {
        Ok(Some(Node::Float(v)))
    }
    fn serialize_char(self, v: char) -> Result<Option<Node<'static>>, Unsupported> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<Option<Node<'static>>, Unsupported> {
        Ok(Some(Node::Str(Cow::Owned(v.to_string()))))
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<Option<Node<'static>>, Unsupported> {
        unsupported("bytes")
    }
    fn serialize_none(self) -> Result<Option<Node<'static>>, Unsupported> {
        Ok(None)
    }
    fn serialize_some<T: Serialize + ?Sized>(
        self,
        v: &T,
    ) -> Result<Option<Node<'static>>, Unsupported> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Result<Option<Node<'static>>, Unsupported> {
        unsupported("a unit")
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<Option<Node<'static>>, Unsupported> {
        unsupported("a unit struct")
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<Option<Node<'static>>, Unsupported> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        v: &T,
    ) -> Result<Option<Node<'static>>, Unsupported> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<Option<Node<'static>>, Unsupported> {
        unsupported("a newtype variant")
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Items, Unsupported> {
        Ok(Items::new())
    }
    fn serialize_tuple(self, _: usize) -> Result<Items, Unsupported> {
        Ok(Items::new())
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Items, Unsupported> {
        Ok(Items::new())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Unsupported> {
        unsupported("a tuple variant")
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Items, Unsupported> {
        Ok(Items::new())
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Items, Unsupported> {
        Ok(Items::new())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Unsupported> {
        unsupported("a struct variant")
    }
}

impl ser::SerializeSeq for Items {
    type Ok = Option<Node<'static>>;
    type Error = Unsupported;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Unsupported> {
        self.element(v)
    }
    fn end(self) -> Result<Option<Node<'static>>, Unsupported> {
        Ok(Some(Node::Array(self.array)))
    }
}

impl ser::SerializeTuple for Items {
    type Ok = Option<Node<'static>>;
    type Error = Unsupported;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Unsupported> {
        self.element(v)
    }
    fn end(self) -> Result<Option<Node<'static>>, Unsupported> {
        Ok(Some(Node::Array(self.array)))
    }
}

impl ser::SerializeTupleStruct for Items {
    type Ok = Option<Node<'static>>;
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Unsupported> {
        self.element(v)
    }
    fn end(self) -> Result<Option<Node<'static>>, Unsupported> {
        Ok(Some(Node::Array(self.array)))
    }
}

impl ser::SerializeMap for Items {
    type Ok = Option<Node<'static>>;
    type Error = Unsupported;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Unsupported> {
        match key.serialize(NodeWriter)? {
            Some(Node::Str(k)) => {
                self.key = Some(k);
                Ok(())
            }
            _ => unsupported("a key that is not a string"),
        }
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Unsupported> {
        let key = self
            .key
            .take()
            .ok_or_else(|| ser::Error::custom("a value without a key"))?;
        self.entry(key, v)
    }
    fn end(self) -> Result<Option<Node<'static>>, Unsupported> {
        Ok(Some(Node::Table(self.table)))
    }
}

impl ser::SerializeStruct for Items {
    type Ok = Option<Node<'static>>;
    type Error = Unsupported;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        v: &T,
    ) -> Result<(), Unsupported> {
        self.entry(Cow::Borrowed(key), v)
    }
    fn end(self) -> Result<Option<Node<'static>>, Unsupported> {
        Ok(Some(Node::Table(self.table)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::casebase::tests::case;
    use crate::features::Range;

    fn by_toml(case: &Case) -> String {
        #[derive(serde::Serialize)]
        struct One<'a> {
            case: [&'a Case; 1],
        }
        toml::to_string(&One { case: [case] }).unwrap()
    }

    /// Numbers of every shape a case holds are written as `toml` writes
    /// them and read back to the same values.
    #[test]
    fn numbers_are_written_as_toml_writes_them_and_read_back() {
        let mut c = case("numbers");
        for (i, v) in [
            0.0,
            -0.0,
            1.0,
            0.1 + 0.2,
            1e300,
            -1e-7,
            123456.789,
            f64::MAX,
        ]
        .into_iter()
        .enumerate()
        {
            c.features.insert(&format!("f{i}"), Range::new(v, -v));
        }
        c.outcome.positions_examined = Some(i64::MAX as u64);
        c.params.weight = 2.5;
        let mut quick = String::new();
        assert!(write_case(&c, &mut quick));
        assert_eq!(quick, by_toml(&c));
        assert_eq!(read_case(&quick), Some(c));
    }

    /// A case with a profile (`[[case.trial]]` tables, each with its
    /// `[case.trial.params]` and one with a `variant` table below that) is
    /// written as `toml` writes it and read back.
    #[test]
    fn a_profile_is_written_as_toml_writes_it_and_read_back() {
        let c = crate::casebase::tests::profiled("profiled");
        let mut quick = String::new();
        assert!(write_case(&c, &mut quick));
        assert_eq!(quick, by_toml(&c));
        assert_eq!(quick.matches("\n[[case.trial]]\n").count(), 3, "{quick}");
        assert!(quick.contains("\n[case.trial.params.variant]\n"), "{quick}");
        assert_eq!(read_case(&quick), Some(c));
    }

    /// Arrays of tables written another way than `toml` would accept, or
    /// than the quick reader reads alike, are left to `toml`.
    #[test]
    fn the_quick_reader_leaves_odd_arrays_of_tables_to_toml() {
        let text = by_toml(&crate::casebase::tests::profiled("a"));
        let first = "[[case.trial]]\nstatus = \"solved\"";
        assert_eq!(text.matches(first).count(), 1);
        for (from, to) in [
            (first, "trial = []\n[[case.trial]]\nstatus = \"solved\""),
            (first, "[case.trial]\nstatus = \"solved\""),
            (first, "[[case.trial]]\n[[case.trial]]\nstatus = \"solved\""),
            ("[case.params]", "[[case.params]]"),
            ("[case.outcome]", "[[case.outcome]]\n[case.outcome]"),
        ] {
            let odd = text.replacen(from, to, 1);
            assert_eq!(read_case(&odd), None, "{to}");
        }
    }

    /// The quick reader refuses what it does not fully read, so that
    /// `toml` reads it (or names its error).
    #[test]
    fn the_quick_reader_leaves_other_forms_to_toml() {
        let text = by_toml(&case("a"));
        assert!(read_case(&text).is_some());
        for (from, to) in [
            ("steps = 116", "steps = 116 # c"),
            ("steps = 116", "steps = 0116"),
            ("steps = 116", "steps = 1_16"),
            ("steps = 116", "steps = 116\nsteps = 117"),
            ("steps = 116", "steps = 99999999999999999999"),
            ("steps = 116", "steps = 1."),
            ("steps = 116", "steps = inf"),
            ("name = \"a\"", "name = \"a\\u0041\""),
            ("name = \"a\"", "\"name\" = \"a\""),
            ("name = \"a\"", "name.x = \"a\""),
            ("[case.outcome]", "[case.outcome]\n[case.outcome]"),
            ("[case.outcome]", "[[case.outcome]]"),
            ("[case.outcome]", "[case]"),
            (
                "found_at = \"2026-01-01T00:00:00Z\"",
                "found_at = 2026-01-01T00:00:00Z",
            ),
        ] {
            assert_eq!(text.matches(from).count(), 1, "{from}");
            let odd = text.replacen(from, to, 1);
            assert_eq!(read_case(&odd), None, "{to}");
        }
    }
}
