//! Plain values in save RAM: `nil`, booleans, numbers, strings and tables of them (keys
//! booleans, numbers or strings), nested at most [`MAX_DEPTH`] deep. The encoding is compact
//! and canonical: a table's pairs are written in key order (booleans, then numbers, then
//! strings), so the same table always gives the same bytes whatever order Lua holds it in.
//!
//! Layout: a tag byte, then its data. `0` nothing stored, `1` false, `2` true, `3` integer
//! (zigzag LEB128), `4` float (8 bytes little-endian), `5` string (LEB128 length, bytes),
//! `6` table (LEB128 pair count, then key, value, key, value...).

use std::cmp::Ordering;

/// Deepest nesting of tables in a stored value.
pub(crate) const MAX_DEPTH: usize = 16;

const NOTHING: u8 = 0;
const FALSE: u8 = 1;
const TRUE: u8 = 2;
const INTEGER: u8 = 3;
const FLOAT: u8 = 4;
const STRING: u8 = 5;
const TABLE: u8 = 6;

/// A value that can be stored.
#[derive(Clone, Debug, PartialEq)]
pub enum Plain {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Vec<u8>),
    Table(Vec<(Plain, Plain)>),
}

impl Plain {
    fn rank(&self) -> u8 {
        match self {
            Plain::Bool(_) => 0,
            Plain::Int(_) | Plain::Float(_) => 1,
            Plain::Str(_) => 2,
            Plain::Table(_) => 3,
        }
    }

    /// The order keys are written in.
    pub(crate) fn key_order(a: &Plain, b: &Plain) -> Ordering {
        let number = |p: &Plain| match p {
            Plain::Int(i) => Some(*i as f64),
            Plain::Float(f) => Some(*f),
            _ => None,
        };
        match (a, b) {
            (Plain::Bool(x), Plain::Bool(y)) => x.cmp(y),
            (Plain::Int(x), Plain::Int(y)) => x.cmp(y),
            (Plain::Str(x), Plain::Str(y)) => x.cmp(y),
            _ => match (number(a), number(b)) {
                (Some(x), Some(y)) => x.total_cmp(&y),
                _ => a.rank().cmp(&b.rank()),
            },
        }
    }

    /// Bytes this value takes encoded.
    pub(crate) fn encoded_len(&self) -> usize {
        match self {
            Plain::Bool(_) => 1,
            Plain::Int(i) => 1 + leb_len(zigzag(*i)),
            Plain::Float(_) => 9,
            Plain::Str(s) => 1 + leb_len(s.len() as u64) + s.len(),
            Plain::Table(pairs) => {
                1 + leb_len(pairs.len() as u64)
                    + pairs
                        .iter()
                        .map(|(k, v)| k.encoded_len() + v.encoded_len())
                        .sum::<usize>()
            }
        }
    }
}

/// Encodes `value` (`None` for nothing stored). Table pairs are written in key order.
pub fn encode(value: Option<&Plain>) -> Vec<u8> {
    let mut out = Vec::new();
    match value {
        None => out.push(NOTHING),
        Some(v) => write(v, &mut out),
    }
    out
}

fn write(value: &Plain, out: &mut Vec<u8>) {
    match value {
        Plain::Bool(false) => out.push(FALSE),
        Plain::Bool(true) => out.push(TRUE),
        Plain::Int(i) => {
            out.push(INTEGER);
            write_leb(zigzag(*i), out);
        }
        Plain::Float(f) => {
            out.push(FLOAT);
            out.extend_from_slice(&f.to_le_bytes());
        }
        Plain::Str(s) => {
            out.push(STRING);
            write_leb(s.len() as u64, out);
            out.extend_from_slice(s);
        }
        Plain::Table(pairs) => {
            out.push(TABLE);
            write_leb(pairs.len() as u64, out);
            let mut sorted: Vec<&(Plain, Plain)> = pairs.iter().collect();
            sorted.sort_by(|a, b| Plain::key_order(&a.0, &b.0));
            for (k, v) in sorted {
                write(k, out);
                write(v, out);
            }
        }
    }
}

/// Decodes the value at the start of `bytes`: `Ok(None)` when nothing is stored, `Err` with
/// what is wrong when the bytes are not a value this encoding writes.
pub fn decode(bytes: &[u8]) -> Result<Option<Plain>, String> {
    let mut reader = Reader { bytes, at: 0 };
    if bytes.first().is_none_or(|&b| b == NOTHING) {
        return Ok(None);
    }
    reader.value(0).map(Some)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, String> {
        let b = *self
            .bytes
            .get(self.at)
            .ok_or_else(|| format!("cut short at byte {}", self.at))?;
        self.at += 1;
        Ok(b)
    }

    fn leb(&mut self) -> Result<u64, String> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            value |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(format!("a length runs past 64 bits at byte {}", self.at))
    }

    fn take(&mut self, n: u64) -> Result<&[u8], String> {
        let left = (self.bytes.len() - self.at) as u64;
        if n > left {
            return Err(format!("cut short at byte {}", self.bytes.len()));
        }
        let start = self.at;
        self.at += n as usize;
        Ok(&self.bytes[start..self.at])
    }

    fn value(&mut self, depth: usize) -> Result<Plain, String> {
        let at = self.at;
        Ok(match self.byte()? {
            FALSE => Plain::Bool(false),
            TRUE => Plain::Bool(true),
            INTEGER => Plain::Int(unzigzag(self.leb()?)),
            FLOAT => Plain::Float(f64::from_le_bytes(
                self.take(8)?.try_into().expect("eight bytes"),
            )),
            STRING => {
                let n = self.leb()?;
                Plain::Str(self.take(n)?.to_vec())
            }
            TABLE => {
                if depth >= MAX_DEPTH {
                    return Err(format!("tables nested deeper than {MAX_DEPTH}"));
                }
                let n = self.leb()?;
                // Each pair takes at least two bytes: a count past that is corrupt.
                if n > (self.bytes.len() - self.at) as u64 / 2 {
                    return Err(format!("a table of {n} pairs cannot fit at byte {at}"));
                }
                let mut pairs = Vec::with_capacity(n as usize);
                for _ in 0..n {
                    let key = self.value(depth + 1)?;
                    if matches!(key, Plain::Table(_)) {
                        return Err(format!("a table key at byte {at}"));
                    }
                    let value = self.value(depth + 1)?;
                    pairs.push((key, value));
                }
                Plain::Table(pairs)
            }
            tag => return Err(format!("unknown tag {tag} at byte {at}")),
        })
    }
}

fn zigzag(i: i64) -> u64 {
    ((i << 1) ^ (i >> 63)) as u64
}

fn unzigzag(u: u64) -> i64 {
    ((u >> 1) as i64) ^ -((u & 1) as i64)
}

fn leb_len(mut u: u64) -> usize {
    let mut n = 1;
    while u >= 0x80 {
        u >>= 7;
        n += 1;
    }
    n
}

fn write_leb(mut u: u64, out: &mut Vec<u8>) {
    while u >= 0x80 {
        out.push((u as u8 & 0x7f) | 0x80);
        u >>= 7;
    }
    out.push(u as u8);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(text: &str) -> Plain {
        Plain::Str(text.as_bytes().to_vec())
    }

    #[test]
    fn values_round_trip_and_tables_are_canonical() {
        let table = Plain::Table(vec![
            (s("name"), s("ACE")),
            (Plain::Int(2), Plain::Float(1.5)),
            (Plain::Int(1), Plain::Int(-99_999_999_999)),
            (
                Plain::Bool(true),
                Plain::Table(vec![(Plain::Int(1), Plain::Bool(false))]),
            ),
        ]);
        let bytes = encode(Some(&table));
        assert_eq!(bytes.len(), table.encoded_len());
        let Some(Plain::Table(back)) = decode(&bytes).unwrap() else {
            panic!("a table")
        };
        let keys: Vec<&Plain> = back.iter().map(|(k, _)| k).collect();
        assert_eq!(
            keys,
            [
                &Plain::Bool(true),
                &Plain::Int(1),
                &Plain::Int(2),
                &s("name")
            ]
        );
        let mut reversed = table.clone();
        if let Plain::Table(pairs) = &mut reversed {
            pairs.reverse();
        }
        assert_eq!(encode(Some(&reversed)), bytes, "order-independent bytes");
        for v in [
            Plain::Int(i64::MIN),
            Plain::Int(i64::MAX),
            Plain::Float(-0.25),
            s(""),
        ] {
            assert_eq!(decode(&encode(Some(&v))), Ok(Some(v)));
        }
        assert_eq!(decode(&encode(None)), Ok(None));
        assert_eq!(decode(&[]), Ok(None));
    }

    #[test]
    fn corrupt_bytes_are_errors_never_panics() {
        assert!(decode(&[9]).unwrap_err().contains("unknown tag 9"));
        assert!(decode(&[STRING, 200, 1]).unwrap_err().contains("cut short"));
        assert!(
            decode(&[TABLE, 0xff, 0xff, 0xff, 0x7f])
                .unwrap_err()
                .contains("cannot fit")
        );
        assert!(
            decode(&[
                INTEGER, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
            ])
            .unwrap_err()
            .contains("64 bits")
        );
        let mut deep = vec![];
        for _ in 0..=MAX_DEPTH {
            deep.extend([TABLE, 1, TRUE]);
        }
        deep.push(TRUE);
        assert!(decode(&deep).unwrap_err().contains("nested deeper"));
        assert!(
            decode(&[TABLE, 1, TABLE, 0, TRUE])
                .unwrap_err()
                .contains("table key")
        );
        // Every prefix of a good encoding fails cleanly or decodes.
        let bytes = encode(Some(&Plain::Table(vec![(s("k"), s("value"))])));
        for end in 0..bytes.len() {
            let _ = decode(&bytes[..end]);
        }
    }
}
