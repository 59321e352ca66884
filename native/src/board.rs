//! The position (bitboards per colour and piece type) and the DFEN parser (spec/domain.md §2).
//!
//! The parser accepts exactly the ASCII texts that `contract.features.dfen.parse_fen` accepts and
//! refuses the rest without a message: the refusal's text is the Python reference's, produced by
//! re-parsing the refused text there (one source of truth for messages).

pub const PAWN: usize = 1;
pub const KNIGHT: usize = 2;
pub const BISHOP: usize = 3;
pub const ROOK: usize = 4;
pub const QUEEN: usize = 5;
pub const KING: usize = 6;

/// One side's boards: occupancy, then P, N, B, R, Q, K.
pub type Side = [u64; 7];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    /// `boards[colour]`, colour 1 = white, 0 = black (python-chess's booleans).
    pub boards: [Side; 2],
    pub turn: bool,
    pub castling: u32,
    pub ep: u64,
}

impl Pos {
    /// True when the boards are a consistent placement: piece boards pairwise disjoint, each side's
    /// occupancy their union, and the two sides disjoint. Only such positions take the native path.
    pub fn consistent(boards: &[Side; 2]) -> bool {
        let mut seen = 0u64;
        for side in boards {
            let mut union = 0u64;
            for &bb in &side[1..] {
                if bb & seen != 0 {
                    return false;
                }
                seen |= bb;
                union |= bb;
            }
            if union != side[0] {
                return false;
            }
        }
        true
    }
}

/// Java `String.split(sep)`: trailing empty fields dropped.
fn java_split(text: &[u8], sep: u8) -> Vec<&[u8]> {
    let mut parts: Vec<&[u8]> = text.split(|&c| c == sep).collect();
    while parts.last().is_some_and(|p| p.is_empty()) {
        parts.pop();
    }
    parts
}

fn castling(text: &[u8]) -> Option<u32> {
    if text.is_empty() || text.len() > 4 {
        return None;
    }
    if text == b"-" {
        return Some(0);
    }
    let mut rights = 0u32;
    for &c in text {
        let bit = match c {
            b'K' => 1,
            b'Q' => 2,
            b'k' => 4,
            b'q' => 8,
            _ => return None,
        };
        if rights & bit != 0 {
            return None;
        }
        rights |= bit;
    }
    Some(rights)
}

fn en_passant(text: &[u8]) -> Option<u64> {
    if text == b"-" {
        return Some(0);
    }
    if text.is_empty() || text.len() % 2 != 0 {
        return None;
    }
    let mut squares = 0u64;
    for pair in text.chunks(2) {
        let (f, r) = (pair[0], pair[1]);
        if !(b'a'..=b'h').contains(&f) || !(b'1'..=b'8').contains(&r) {
            return None;
        }
        let bit = 1u64 << ((r - b'1') as u32 * 8 + (f - b'a') as u32);
        if squares & bit != 0 {
            return None;
        }
        squares |= bit;
    }
    Some(squares)
}

fn counter(text: &[u8], low: u64, high: u64, high_digits: usize) -> Option<u64> {
    if text.is_empty() || !text.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let start = text.iter().position(|&c| c != b'0').unwrap_or(text.len());
    let significant = &text[start..];
    if significant.len() > high_digits {
        return None;
    }
    let value = significant.iter().fold(0u64, |acc, &c| acc * 10 + u64::from(c - b'0'));
    (low..=high).contains(&value).then_some(value)
}

fn dice(text: &[u8]) -> Option<()> {
    if text == b"-" {
        return Some(());
    }
    if text.is_empty() || text.len() > 3 {
        return None;
    }
    text.iter()
        .all(|c| matches!(c.to_ascii_lowercase(), b'p' | b'n' | b'b' | b'r' | b'q' | b'k'))
        .then_some(())
}

fn piece_type(c: u8) -> Option<usize> {
    match c.to_ascii_lowercase() {
        b'p' => Some(PAWN),
        b'n' => Some(KNIGHT),
        b'b' => Some(BISHOP),
        b'r' => Some(ROOK),
        b'q' => Some(QUEEN),
        b'k' => Some(KING),
        _ => None,
    }
}

fn placement(text: &[u8]) -> Option<[Side; 2]> {
    let ranks = java_split(text, b'/');
    if ranks.len() != 8 {
        return None;
    }
    let mut boards = [[0u64; 7]; 2];
    for (index, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - index as u32;
        let mut file = 0u64;
        for &c in rank_text.iter() {
            if c.is_ascii_digit() {
                file += u64::from(c - b'0');
                continue;
            }
            let ptype = piece_type(c)?;
            if file >= 8 {
                return None;
            }
            let colour = usize::from(c.is_ascii_uppercase());
            let bit = 1u64 << (u64::from(rank) * 8 + file);
            boards[colour][ptype] |= bit;
            boards[colour][0] |= bit;
            file += 1;
        }
        if file != 8 {
            return None;
        }
    }
    Some(boards)
}

/// Parse an ASCII DFEN text; `None` when the Python reference refuses it.
pub fn parse(fen: &[u8]) -> Option<Pos> {
    let fields = java_split(fen, b' ');
    if fields.len() < 4 || fields.len() > 7 {
        return None;
    }
    let turn = match fields[1] {
        b"w" => true,
        b"b" => false,
        _ => return None,
    };
    let rights = castling(fields[2])?;
    let ep = en_passant(fields[3])?;
    if fields.len() > 4 {
        counter(fields[4], 0, 127, 3)?;
    }
    if fields.len() > 5 {
        counter(fields[5], 1, 2_147_483_647, 10)?;
    }
    if fields.len() > 6 {
        dice(fields[6])?;
    }
    let boards = placement(fields[0])?;
    Some(Pos { boards, turn, castling: rights, ep })
}
