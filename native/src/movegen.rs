//! Pseudo-legal generation per piece type, mobility counts, make-move and the attack test
//! (spec/domain.md §5), as `contract.features.movegen` computes them.

use crate::board::{Side, BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use crate::tables::*;

pub const DOUBLE_PUSH: u16 = 1;
pub const CASTLE_KS: u16 = 2;
pub const CASTLE_QS: u16 = 3;
pub const CAPTURE: u16 = 4;
pub const EN_PASSANT: u16 = 5;
const PROMO_FLAGS: [u16; 4] = [11, 10, 9, 8];

/// Piece type placed by a promotion flag (8..15).
#[inline(always)]
pub fn promo_piece(flag: u16) -> usize {
    [KNIGHT, BISHOP, ROOK, QUEEN][(flag & 3) as usize]
}

/// (right bit, king square, rook square, squares that must be empty, king to, rook to, flag).
type Castle = (u32, usize, usize, u64, usize, usize, u16);
const CASTLES: [[Castle; 2]; 2] = [
    [(4, 60, 63, (1 << 61) | (1 << 62), 62, 61, CASTLE_KS), (8, 60, 56, (1 << 57) | (1 << 58) | (1 << 59), 58, 59, CASTLE_QS)],
    [(1, 4, 7, (1 << 5) | (1 << 6), 6, 5, CASTLE_KS), (2, 4, 0, (1 << 1) | (1 << 2) | (1 << 3), 2, 3, CASTLE_QS)],
];
const RIGHTS_OF: [u32; 2] = [4 | 8, 1 | 2];

#[inline(always)]
pub fn queen(sq: usize, occ: u64) -> u64 {
    diag(sq, occ) | line(sq, occ)
}

#[inline(always)]
fn enc(frm: usize, to: usize, flag: u16) -> u16 {
    to as u16 | ((frm as u16) << 6) | (flag << 12)
}

/// Does any piece of `colour` (boards `side`) attack `square`?
pub fn is_attacked(side: &Side, colour: bool, square: usize, occ: u64) -> bool {
    PAWN_ATTACKS[usize::from(!colour)][square] & side[PAWN] != 0
        || KNIGHT_ATTACKS[square] & side[KNIGHT] != 0
        || diag(square, occ) & (side[BISHOP] | side[QUEEN]) != 0
        || line(square, occ) & (side[ROOK] | side[QUEEN]) != 0
        || KING_ATTACKS[square] & side[KING] != 0
}

fn pawn_moves(own: &Side, opp: &Side, colour: bool, ep: u64, out: &mut Vec<u16>) {
    let occupied = own[0] | opp[0];
    let enemy = opp[0];
    let enemy_kings = opp[KING];
    let (push, east, west, last, double_rank, ep_rank): (i32, i32, i32, u64, u64, u64) =
        if colour { (8, 9, 7, RANK_8, RANK_3, RANK_6) } else { (-8, -7, -9, RANK_1, RANK_6, RANK_3) };
    let ep_squares = ep & ep_rank;
    for frm in Bits(own[PAWN]) {
        let to = frm as i32 + push;
        if (0..64).contains(&to) && occupied >> to & 1 == 0 {
            let to = to as usize;
            if last >> to & 1 != 0 {
                for flag in PROMO_FLAGS {
                    out.push(enc(frm, to, flag));
                }
            } else {
                out.push(enc(frm, to, 0));
                if double_rank >> to & 1 != 0 {
                    let to2 = (to as i32 + push) as usize;
                    if occupied >> to2 & 1 == 0 {
                        out.push(enc(frm, to2, DOUBLE_PUSH));
                    }
                }
            }
        }
        let file = frm & 7;
        for (delta, ok) in [(east, file != 7), (west, file != 0)] {
            let to = frm as i32 + delta;
            if ok && (0..64).contains(&to) && enemy >> to & 1 != 0 {
                let to = to as usize;
                if last >> to & 1 != 0 && enemy_kings >> to & 1 == 0 {
                    for flag in PROMO_FLAGS {
                        out.push(enc(frm, to, flag | 4));
                    }
                } else {
                    out.push(enc(frm, to, CAPTURE));
                }
            }
        }
        if ep_squares != 0 {
            let targets = PAWN_ATTACKS[usize::from(colour)][frm];
            for to in Bits(ep_squares) {
                if targets >> to & 1 != 0 {
                    out.push(enc(frm, to, EN_PASSANT));
                }
            }
        }
    }
}

fn castle_moves(own: &Side, occupied: u64, colour: bool, castling: u32, out: &mut Vec<u16>) {
    for (right, king_sq, rook_sq, between, king_to, _rook_to, flag) in CASTLES[usize::from(colour)] {
        if castling & right != 0
            && own[KING] >> king_sq & 1 != 0
            && own[ROOK] >> rook_sq & 1 != 0
            && occupied & between == 0
        {
            out.push(enc(king_sq, king_to, flag));
        }
    }
}

/// `generatePieceMoves`: the pseudo-legal moves of `colour`'s pieces of `ptype`, appended to `out`.
pub fn piece_moves(own: &Side, opp: &Side, colour: bool, ptype: usize, castling: u32, ep: u64, out: &mut Vec<u16>) {
    if ptype == PAWN {
        pawn_moves(own, opp, colour, ep, out);
        return;
    }
    let occupied = own[0] | opp[0];
    let not_own = !own[0];
    let enemy = opp[0];
    for frm in Bits(own[ptype]) {
        let targets = match ptype {
            KNIGHT => KNIGHT_ATTACKS[frm],
            BISHOP => diag(frm, occupied),
            ROOK => line(frm, occupied),
            QUEEN => queen(frm, occupied),
            _ => KING_ATTACKS[frm],
        } & not_own;
        for to in Bits(targets) {
            out.push(enc(frm, to, if enemy >> to & 1 != 0 { CAPTURE } else { 0 }));
        }
        if ptype == KING {
            castle_moves(own, occupied, colour, castling, out);
        }
    }
}

#[inline(always)]
fn pop(bb: u64) -> u32 {
    bb.count_ones()
}

/// Pseudo-legal move counts `[_, P, N, B, R, Q, K]` by bit counting (`count_piece_moves`).
pub fn count_moves(own: &Side, opp: &Side, colour: bool, castling: u32, ep: u64) -> [u32; 7] {
    let occupied = own[0] | opp[0];
    let empty = !occupied;
    let enemy = opp[0];
    let not_own = !own[0];
    let mut counts = [0u32; 7];
    let pawns = own[PAWN];
    if pawns != 0 {
        let (single, double, east, west, last, ep_rank) = if colour {
            let single = (pawns << 8) & empty;
            (single, ((single & RANK_3) << 8) & empty, ((pawns & !FILE_H) << 9) & enemy,
             ((pawns & !FILE_A) << 7) & enemy, RANK_8, RANK_6)
        } else {
            let single = (pawns >> 8) & empty;
            (single, ((single & RANK_6) >> 8) & empty, ((pawns & !FILE_H) >> 7) & enemy,
             ((pawns & !FILE_A) >> 9) & enemy, RANK_1, RANK_3)
        };
        let mut n = pop(single & !last) + 4 * pop(single & last) + pop(double);
        let kings_last = opp[KING] & last;
        for caps in [east, west] {
            n += pop(caps & !last) + pop(caps & kings_last);
            n += 4 * pop(caps & last & !kings_last);
        }
        for sq in Bits(ep & ep_rank) {
            n += pop(PAWN_ATTACKS[usize::from(!colour)][sq] & pawns);
        }
        counts[PAWN] = n;
    }
    for frm in Bits(own[KNIGHT]) {
        counts[KNIGHT] += pop(KNIGHT_ATTACKS[frm] & not_own);
    }
    for frm in Bits(own[BISHOP]) {
        counts[BISHOP] += pop(diag(frm, occupied) & not_own);
    }
    for frm in Bits(own[ROOK]) {
        counts[ROOK] += pop(line(frm, occupied) & not_own);
    }
    for frm in Bits(own[QUEEN]) {
        counts[QUEEN] += pop(queen(frm, occupied) & not_own);
    }
    if own[KING] != 0 {
        let mut castles = Vec::new();
        castle_moves(own, occupied, colour, castling, &mut castles);
        for frm in Bits(own[KING]) {
            counts[KING] += pop(KING_ATTACKS[frm] & not_own) + castles.len() as u32;
        }
    }
    counts
}

/// Apply `move` for `colour`: `(own', opp', castling', ep')` (`make_move`; the clock flag is not needed).
pub fn make_move(own: &Side, opp: &Side, colour: bool, castling: u32, ep: u64, mv: u16) -> (Side, Side, u32, u64) {
    let mut own2 = *own;
    let mut opp2 = *opp;
    let frm = ((mv >> 6) & 63) as usize;
    let to = (mv & 63) as usize;
    let flag = mv >> 12;
    let from_bit = 1u64 << frm;
    let to_bit = 1u64 << to;
    let mover = (1..7).find(|&p| own2[p] & from_bit != 0).unwrap_or(0);
    own2[mover] ^= from_bit;
    own2[0] ^= from_bit;
    let mut captured = 0usize;
    if flag != EN_PASSANT && opp2[0] & to_bit != 0 {
        if let Some(p) = (1..7).find(|&p| opp2[p] & to_bit != 0) {
            captured = p;
            opp2[p] ^= to_bit;
        }
        opp2[0] ^= to_bit;
    }
    let placed = if flag & 8 != 0 { promo_piece(flag) } else { mover };
    own2[placed] |= to_bit;
    own2[0] |= to_bit;
    let behind: i32 = if colour { -8 } else { 8 };
    if flag == EN_PASSANT {
        let victim = 1u64 << (to as i32 + behind);
        for side in [&mut own2, &mut opp2] {
            if side[0] & victim != 0 {
                for p in 1..7 {
                    if side[p] & victim != 0 {
                        side[p] ^= victim;
                    }
                }
                side[0] ^= victim;
            }
        }
    } else if flag == CASTLE_KS || flag == CASTLE_QS {
        for (_right, _king_sq, rook_sq, _between, king_to, rook_to, castle_flag) in CASTLES[usize::from(colour)] {
            if castle_flag == flag && king_to == to {
                let rooks = (1u64 << rook_sq) | (1u64 << rook_to);
                own2[ROOK] ^= rooks;
                own2[0] ^= rooks;
            }
        }
    }
    let mut ep = ep & !to_bit;
    if mover == PAWN && flag != DOUBLE_PUSH && (0..64).contains(&(frm as i32 + behind)) {
        ep &= !(1u64 << (frm as i32 + behind));
    }
    if captured == PAWN && (0..64).contains(&(to as i32 - behind)) {
        ep &= !(1u64 << (to as i32 - behind));
    }
    if flag == DOUBLE_PUSH {
        ep |= 1u64 << (to as i32 + behind);
    }
    let mut castling = castling;
    if captured == ROOK && matches!(to, 0 | 7 | 56 | 63) {
        castling &= !match to { 0 => 2, 7 => 1, 56 => 8, _ => 4 };
    } else if captured == KING {
        castling &= !RIGHTS_OF[usize::from(!colour)];
    }
    if mover == KING {
        castling &= !RIGHTS_OF[usize::from(colour)];
    } else if mover == ROOK {
        match (colour, frm) {
            (true, 0) => castling &= !2,
            (true, 7) => castling &= !1,
            (false, 56) => castling &= !8,
            (false, 63) => castling &= !4,
            _ => {}
        }
    }
    (own2, opp2, castling, ep)
}
