//! The capture count (spec/domain.md §7): ordered rolls of 216 with which one colour captures a king
//! or queen of the other in one fresh 3d6 turn. The same fast search as `contract.features.capture`
//! (search once over sequences, mark rolls by the dice consumed, the last two plies as geometry, the
//! out-of-reach shortcut), computed on `u64` bitboards.

use std::sync::OnceLock;

use crate::board::{Side, BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use crate::movegen::{make_move, piece_moves, promo_piece, CASTLE_KS, CASTLE_QS, EN_PASSANT};
use crate::tables::*;

const DIE: [usize; 7] = [0, 1, 4, 16, 64, 256, 1024];
const ALL_ROLLS: u64 = (1u64 << 56) - 1;
const KEYS: usize = 4096;

struct Tables {
    /// ROLL_MASK[key]: the sorted rolls (bit i) containing the dice multiset `key`; 0 where absent.
    roll_mask: Vec<u64>,
    /// Ordered rolls each sorted roll stands for.
    weights: [u32; 56],
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut rolls: Vec<[usize; 3]> = Vec::new();
        let mut weights = [0u32; 56];
        for d1 in 1..7 {
            for d2 in d1..7 {
                for d3 in d2..7 {
                    let distinct = 1 + usize::from(d2 != d1) + usize::from(d3 != d2);
                    weights[rolls.len()] = [0, 1, 3, 6][distinct];
                    rolls.push([d1, d2, d3]);
                }
            }
        }
        let contains = |roll: &[usize; 3], dice: &[usize]| {
            let mut pool = roll.to_vec();
            for d in dice {
                match pool.iter().position(|x| x == d) {
                    Some(i) => {
                        pool.remove(i);
                    }
                    None => return false,
                }
            }
            true
        };
        let mut roll_mask = vec![0u64; KEYS];
        let mut subsets: Vec<Vec<usize>> = vec![vec![]];
        for a in 1..7 {
            subsets.push(vec![a]);
            for b in a..7 {
                subsets.push(vec![a, b]);
                for c in b..7 {
                    subsets.push(vec![a, b, c]);
                }
            }
        }
        for sub in &subsets {
            let key: usize = sub.iter().map(|&d| DIE[d]).sum();
            let mut mask = 0u64;
            for (i, roll) in rolls.iter().enumerate() {
                if contains(roll, sub) {
                    mask |= 1 << i;
                }
            }
            roll_mask[key] = mask;
        }
        Tables { roll_mask, weights }
    })
}

#[inline(always)]
fn mask_of(t: &Tables, key: usize) -> u64 {
    if key < KEYS { t.roll_mask[key] } else { 0 }
}

/// Number of ordered rolls (of 216) in a mask of sorted rolls.
pub fn mask_weight(mask: u64) -> u32 {
    let t = tables();
    Bits(mask).map(|i| t.weights[i]).sum()
}

struct Search<'a> {
    t: &'a Tables,
    colour: bool,
    targets: u64,
    moves: Vec<Vec<u16>>,
}

type Reverse = (u64, u64, u64, u64, u64);

fn reverse_sets(targets: u64, occupied: u64) -> (u64, u64) {
    let (mut d, mut l) = (0, 0);
    for x in Bits(targets) {
        d |= diag(x, occupied);
        l |= line(x, occupied);
    }
    (d, l)
}

fn destinations(ptype: usize, s: usize, colour: bool, occupied: u64, not_own: u64, enemy: u64) -> u64 {
    match ptype {
        PAWN => {
            let mut dests = 0;
            let to = if colour { s as i32 + 8 } else { s as i32 - 8 };
            if (0..64).contains(&to) && occupied >> to & 1 == 0 {
                dests = 1u64 << to;
                if (if colour { RANK_2 } else { RANK_7 }) >> s & 1 != 0 {
                    let to2 = if colour { to + 8 } else { to - 8 };
                    if occupied >> to2 & 1 == 0 {
                        dests |= 1u64 << to2;
                    }
                }
            }
            dests | (PAWN_ATTACKS[usize::from(colour)][s] & enemy)
        }
        KNIGHT => KNIGHT_ATTACKS[s] & not_own,
        KING => KING_ATTACKS[s] & not_own,
        _ => {
            let mut dests = 0;
            if ptype != ROOK {
                dests = diag(s, occupied);
            }
            if ptype != BISHOP {
                dests |= line(s, occupied);
            }
            dests & not_own
        }
    }
}

fn out_of_reach(own: &Side, colour: bool, targets: u64) -> bool {
    let zone = if colour { RANK_5 | RANK_6 | RANK_7 | RANK_8 } else { RANK_1 | RANK_2 | RANK_3 | RANK_4 };
    if own[BISHOP] | own[ROOK] | own[QUEEN] | (own[PAWN] & zone) != 0 {
        return false;
    }
    for x in Bits(targets) {
        let (xr, xf) = ((x >> 3) as i32, (x & 7) as i32);
        for k in Bits(own[KING]) {
            if ((k >> 3) as i32 - xr).abs().max(((k & 7) as i32 - xf).abs()) <= 3 {
                return false;
            }
        }
        for n in Bits(own[KNIGHT]) {
            if KNIGHT_DISTANCE[n][x] <= 3 {
                return false;
            }
        }
        for p in Bits(own[PAWN]) {
            let pr = (p >> 3) as i32;
            let ahead = if colour { xr - pr } else { pr - xr };
            let start = if colour { pr <= 1 } else { pr >= 6 };
            if 1 <= ahead && ahead <= if start { 4 } else { 3 } && ((p & 7) as i32 - xf).abs() <= 3 {
                return false;
            }
        }
    }
    true
}

impl Search<'_> {
    fn gen(&mut self, depth: usize, own: &Side, opp: &Side, ptype: usize, castling: u32, ep: u64) -> Vec<u16> {
        let mut buf = std::mem::take(&mut self.moves[depth]);
        buf.clear();
        piece_moves(own, opp, self.colour, ptype, castling, ep, &mut buf);
        buf
    }

    fn give_back(&mut self, depth: usize, buf: Vec<u16>) {
        self.moves[depth] = buf;
    }

    fn direct_types(&self, own: &Side, occupied: u64) -> u32 {
        let mut types = 0u32;
        let enemy_pawn_attacks = &PAWN_ATTACKS[usize::from(!self.colour)];
        for x in Bits(self.targets) {
            if enemy_pawn_attacks[x] & own[PAWN] != 0 {
                types |= 2;
            }
            if KNIGHT_ATTACKS[x] & own[KNIGHT] != 0 {
                types |= 4;
            }
            let d = diag(x, occupied);
            if d & own[BISHOP] != 0 {
                types |= 8;
            }
            let l = line(x, occupied);
            if l & own[ROOK] != 0 {
                types |= 16;
            }
            if (d | l) & own[QUEEN] != 0 {
                types |= 32;
            }
            if KING_ATTACKS[x] & own[KING] != 0 {
                types |= 64;
            }
        }
        types
    }

    fn mark_types(&self, types: u32, prefix: usize, mut covered: u64) -> u64 {
        for p in 1..7 {
            if types >> p & 1 != 0 {
                covered |= mask_of(self.t, prefix + DIE[p]);
            }
        }
        covered
    }

    /// The plain sequence search with one or two dice left (`_generic`).
    #[allow(clippy::too_many_arguments)]
    fn generic(&mut self, depth: usize, own: &Side, opp: &Side, castling: u32, ep: u64, dice_left: u32, prefix: usize,
               mut covered: u64) -> u64 {
        for ptype in 1..7 {
            if own[ptype] == 0 {
                continue;
            }
            let key = prefix + DIE[ptype];
            if mask_of(self.t, key) & !covered == 0 {
                continue;
            }
            let moves = self.gen(depth, own, opp, ptype, castling, ep);
            for &mv in &moves {
                let flag = mv >> 12;
                if self.targets >> (mv & 63) & 1 != 0 {
                    covered |= mask_of(self.t, key);
                } else if dice_left == 2 && flag != CASTLE_KS && flag != CASTLE_QS {
                    let (own2, opp2, c2, ep2) = make_move(own, opp, self.colour, castling, ep, mv);
                    covered = self.generic(depth + 1, &own2, &opp2, c2, ep2, 1, key, covered);
                }
            }
            self.give_back(depth, moves);
        }
        covered
    }

    #[allow(clippy::too_many_arguments)]
    fn discoveries(&self, own: &Side, targets: u64, occupied: u64, not_own: u64, enemy: u64, prefix: usize,
                   mut covered: u64) -> u64 {
        let own_occ = own[0];
        let diag_sliders = own[BISHOP] | own[QUEEN];
        let line_sliders = own[ROOK] | own[QUEEN];
        if diag_sliders | line_sliders == 0 {
            return covered;
        }
        for x in Bits(targets) {
            let low = 1u64 << x;
            let d = diag(x, occupied);
            let l = line(x, occupied);
            let rays = [
                (if diag_sliders != 0 { d & own_occ } else { 0 }, true),
                (if line_sliders != 0 { l & own_occ } else { 0 }, false),
            ];
            for (ray_blockers, is_diag) in rays {
                for b in Bits(ray_blockers) {
                    let bl = 1u64 << b;
                    let occ2 = occupied ^ bl;
                    let behind = if is_diag {
                        diag(x, occ2) & !d & diag_sliders
                    } else {
                        line(x, occ2) & !l & line_sliders
                    };
                    if behind == 0 {
                        continue;
                    }
                    let slider = 63 - behind.leading_zeros() as usize;
                    let slider_type = if own[QUEEN] & behind != 0 { QUEEN } else if is_diag { BISHOP } else { ROOK };
                    let btype = (1..7).find(|&p| own[p] & bl != 0).unwrap_or(0);
                    let key = prefix + DIE[btype] + DIE[slider_type];
                    if mask_of(self.t, key) & !covered == 0 {
                        continue;
                    }
                    if destinations(btype, b, self.colour, occupied, not_own, enemy) & !(BETWEEN[x][slider] | low) != 0 {
                        covered |= mask_of(self.t, key);
                    }
                }
            }
        }
        covered
    }

    #[allow(clippy::too_many_arguments)]
    fn approach(&self, own: &Side, occupied: u64, not_own: u64, enemy: u64, promotable: u64, pieces_mask: u64,
                reverse: &Reverse, prefix: usize, mut covered: u64) -> u64 {
        let (rev_pawn, rev_knight, rev_king, rev_diag, rev_line) = *reverse;
        let visible = rev_diag | rev_line;
        let colour = self.colour;
        for ptype in 1..7 {
            let pieces = own[ptype] & pieces_mask;
            if pieces == 0 {
                continue;
            }
            let first_key = prefix + DIE[ptype];
            if mask_of(self.t, first_key) & !covered == 0 {
                continue;
            }
            let same = mask_of(self.t, first_key + DIE[ptype]);
            if ptype != PAWN && same & !covered == 0 {
                continue;
            }
            let reach: Option<u64> = match ptype {
                KNIGHT => Some(rev_knight),
                KING => Some(rev_king),
                PAWN => Some(rev_pawn),
                _ => None,
            };
            for s in Bits(pieces) {
                let sbit = 1u64 << s;
                let dests = destinations(ptype, s, colour, occupied, not_own, enemy);
                if dests == 0 {
                    continue;
                }
                let promo = if ptype == PAWN { dests & promotable } else { 0 };
                let (mut diag_s, mut line_s) = (rev_diag, rev_line);
                if (reach.is_none() || promo != 0) && visible & sbit != 0 {
                    (diag_s, line_s) = reverse_sets(self.targets, occupied & !sbit);
                }
                if ptype == PAWN {
                    if dests & !promo & rev_pawn != 0 && same & !covered != 0 {
                        covered |= same;
                    }
                    if promo != 0 {
                        for (new_type, new_reach) in
                            [(KNIGHT, rev_knight), (BISHOP, diag_s), (ROOK, line_s), (QUEEN, diag_s | line_s)]
                        {
                            if promo & new_reach != 0 {
                                covered |= mask_of(self.t, first_key + DIE[new_type]);
                            }
                        }
                    }
                    continue;
                }
                let reach_s = match reach {
                    Some(r) => r,
                    None => match ptype {
                        BISHOP => diag_s,
                        ROOK => line_s,
                        _ => diag_s | line_s,
                    },
                };
                if dests & reach_s != 0 {
                    covered |= same;
                    break;
                }
            }
            if covered == ALL_ROLLS {
                return covered;
            }
        }
        covered
    }

    fn reverse_all(&self, occupied: u64) -> Reverse {
        let (mut rp, mut rn, mut rk) = (0, 0, 0);
        let enemy_pawn_attacks = &PAWN_ATTACKS[usize::from(!self.colour)];
        for x in Bits(self.targets) {
            rp |= enemy_pawn_attacks[x];
            rn |= KNIGHT_ATTACKS[x];
            rk |= KING_ATTACKS[x];
        }
        let (d, l) = reverse_sets(self.targets, occupied);
        (rp, rn, rk, d, l)
    }

    /// Rolls won from this node with at most two more dice, every target occupied (`_two_left`).
    #[allow(clippy::too_many_arguments)]
    fn two_left(&mut self, depth: usize, own: &Side, opp: &Side, castling: u32, ep: u64, prefix: usize, covered: u64,
                reverse: Option<&Reverse>) -> u64 {
        let colour = self.colour;
        let targets = self.targets;
        let occupied = own[0] | opp[0];
        let mut covered = self.mark_types(self.direct_types(own, occupied), prefix, covered);
        if covered == ALL_ROLLS {
            return covered;
        }
        let not_own = !own[0];
        let enemy = opp[0];
        covered = self.discoveries(own, targets, occupied, not_own, enemy, prefix, covered);
        let ep_rank = if colour { RANK_6 } else { RANK_3 };
        let first_key = prefix + DIE[PAWN];
        if ep & ep_rank != 0 && own[PAWN] != 0 && mask_of(self.t, first_key) & !covered != 0 {
            for s in Bits(own[PAWN]) {
                for to in Bits(PAWN_ATTACKS[usize::from(colour)][s] & ep & ep_rank) {
                    let mv = to as u16 | ((s as u16) << 6) | (EN_PASSANT << 12);
                    covered = self.after_first(depth, own, opp, castling, ep, mv, first_key, covered);
                }
            }
        }
        let promotable = (if colour { RANK_8 } else { RANK_1 }) & !opp[KING];
        let computed;
        let reverse = match reverse {
            Some(r) => r,
            None => {
                computed = self.reverse_all(occupied);
                &computed
            }
        };
        self.approach(own, occupied, not_own, enemy, promotable, FULL, reverse, prefix, covered)
    }

    /// Play `mv` (paid by the dice in `key`) and mark what one more die wins (`_after_first`).
    #[allow(clippy::too_many_arguments)]
    fn after_first(&mut self, depth: usize, own: &Side, opp: &Side, castling: u32, ep: u64, mv: u16, key: usize,
                   covered: u64) -> u64 {
        let (own2, opp2, c2, ep2) = make_move(own, opp, self.colour, castling, ep, mv);
        if self.targets & !opp2[0] != 0 {
            return self.generic(depth + 1, &own2, &opp2, c2, ep2, 1, key, covered);
        }
        self.mark_types(self.direct_types(&own2, own2[0] | opp2[0]), key, covered)
    }

    fn approach_candidates(own: &Side, colour: bool, occupied: u64, visible: u64, s: usize) -> u64 {
        let sbit = 1u64 << s;
        let mut cands = (KNIGHT_ATTACKS[s] & own[KNIGHT]) | (KING_ATTACKS[s] & own[KING]);
        cands |= diag(s, occupied) & (own[BISHOP] | own[QUEEN]);
        cands |= line(s, occupied) & (own[ROOK] | own[QUEEN]);
        let pawns = own[PAWN];
        if colour {
            cands |= ((sbit >> 8) | (sbit >> 16)) & pawns;
        } else {
            cands |= ((sbit << 8) | (sbit << 16)) & pawns;
        }
        if visible & sbit != 0 {
            cands |= own[BISHOP] | own[ROOK] | own[QUEEN] | (pawns & if colour { RANK_7 } else { RANK_2 });
        }
        cands
    }

    /// A plain first move followed by at most two more dice (`_child`).
    #[allow(clippy::too_many_arguments)]
    fn child(&mut self, depth: usize, own: &Side, opp: &Side, castling: u32, ep: u64, root: &(u64, u64, Reverse),
             mv: u16, ptype: usize, key: usize, cands: u64, mut covered: u64) -> u64 {
        let colour = self.colour;
        let targets = self.targets;
        let (visible, xray2, reverse) = root;
        let s = ((mv >> 6) & 63) as usize;
        let d = (mv & 63) as usize;
        let flag = mv >> 12;
        let sbit = 1u64 << s;
        let dbit = 1u64 << d;
        let new_type = if flag & 8 != 0 { promo_piece(flag) } else { ptype };
        let mut own2 = *own;
        own2[ptype] ^= sbit;
        own2[new_type] |= dbit;
        own2[0] = (own[0] ^ sbit) | dbit;
        let mut captured = 0;
        let mut opp2 = *opp;
        if opp[0] & dbit != 0 {
            opp2[0] ^= dbit;
            if let Some(p) = (1..7).find(|&p| opp2[p] & dbit != 0) {
                opp2[p] ^= dbit;
                captured = p;
            }
        }
        let occ2 = own2[0] | opp2[0];
        let changed = sbit | dbit;
        let ep_rank = if colour { RANK_6 } else { RANK_3 };
        let mut usable_ep = ep & ep_rank & !dbit;
        if usable_ep != 0 {
            let behind: i32 = if colour { -8 } else { 8 };
            if ptype == PAWN && (0..64).contains(&(s as i32 + behind)) {
                usable_ep &= !(1u64 << (s as i32 + behind));
            }
            if captured == PAWN && (0..64).contains(&(d as i32 - behind)) {
                usable_ep &= !(1u64 << (d as i32 - behind));
            }
            let mut pawn_reach = 0;
            for p in Bits(own2[PAWN]) {
                pawn_reach |= PAWN_ATTACKS[usize::from(colour)][p];
            }
            if usable_ep & pawn_reach != 0 && mask_of(self.t, key + DIE[PAWN]) & !covered != 0 {
                let (fo, fp, c2, ep2) = make_move(own, opp, colour, castling, ep, mv);
                return self.two_left(depth + 1, &fo, &fp, c2, ep2, key, covered, None);
            }
        }
        let not_own = !own2[0];
        let enemy = opp2[0];
        let cands = (cands | dbit) & own2[0];
        if changed & xray2 != 0 || cands & xray2 != 0 {
            covered = self.discoveries(&own2, targets, occ2, not_own, enemy, key, covered);
        }
        let mut child_reverse = *reverse;
        if changed & visible != 0 {
            let (rd, rl) = reverse_sets(targets, occ2);
            child_reverse.3 = rd;
            child_reverse.4 = rl;
        }
        let promotable = (if colour { RANK_8 } else { RANK_1 }) & !opp2[KING];
        self.approach(&own2, occ2, not_own, enemy, promotable, cands, &child_reverse, key, covered)
    }
}

fn xray2(targets: u64, occupied: u64) -> u64 {
    let mut out = 0;
    for x in Bits(targets) {
        let d = diag(x, occupied);
        let l = line(x, occupied);
        let occ2 = occupied & !(d | l);
        out |= d | l | diag(x, occ2) | line(x, occ2);
    }
    out
}

thread_local! {
    /// The per-depth move lists of the searches on this thread, kept between calls (a search borrows
    /// them and gives them back), so a position's four counts allocate nothing.
    static MOVE_LISTS: std::cell::RefCell<Vec<Vec<u16>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The mask of sorted rolls with which `colour` (boards `own`) captures on `targets` (`capture_mask`).
pub fn capture_mask(own: &Side, opp: &Side, colour: bool, castling: u32, ep: u64, targets: u64) -> u64 {
    if targets == 0 || out_of_reach(own, colour, targets) {
        return 0;
    }
    let mut moves = MOVE_LISTS.with(|lists| std::mem::take(&mut *lists.borrow_mut()));
    if moves.len() < 6 {
        moves = vec![Vec::with_capacity(64); 6];
    }
    let mut search = Search { t: tables(), colour, targets, moves };
    let covered = search.rolls(own, opp, castling, ep);
    MOVE_LISTS.with(|lists| *lists.borrow_mut() = search.moves);
    covered
}

impl Search<'_> {
    /// The search of [`capture_mask`] from the root.
    fn rolls(&mut self, own: &Side, opp: &Side, castling: u32, ep: u64) -> u64 {
        let (t, colour, targets) = (self.t, self.colour, self.targets);
        let occupied = own[0] | opp[0];
        let reverse = self.reverse_all(occupied);
        let mut covered = self.two_left(1, own, opp, castling, ep, 0, 0, Some(&reverse));
        if covered == ALL_ROLLS {
            return covered;
        }
        let castle_key = DIE[KING] + DIE[ROOK];
        let visible = reverse.3 | reverse.4;
        let root = (visible, xray2(targets, occupied), reverse);
        let mut cands_from = [u64::MAX; 64];
        let mut cands_known = 0u64;
        for ptype in 1..7 {
            if own[ptype] == 0 {
                continue;
            }
            let key = DIE[ptype];
            if mask_of(t, key) & !covered == 0 {
                continue;
            }
            let moves = self.gen(0, own, opp, ptype, castling, ep);
            for &mv in &moves {
                if targets >> (mv & 63) & 1 != 0 {
                    continue;
                }
                let flag = mv >> 12;
                if flag == CASTLE_KS || flag == CASTLE_QS {
                    if mask_of(t, castle_key) & !covered != 0 {
                        covered = self.after_first(1, own, opp, castling, ep, mv, castle_key, covered);
                    }
                    continue;
                }
                if mask_of(t, key) & !covered == 0 {
                    break;
                }
                if flag == EN_PASSANT {
                    let (own2, opp2, c2, ep2) = make_move(own, opp, colour, castling, ep, mv);
                    covered = if targets & !opp2[0] != 0 {
                        self.generic(1, &own2, &opp2, c2, ep2, 2, key, covered)
                    } else {
                        self.two_left(1, &own2, &opp2, c2, ep2, key, covered, None)
                    };
                } else {
                    let origin = ((mv >> 6) & 63) as usize;
                    if cands_known >> origin & 1 == 0 {
                        cands_from[origin] = Search::approach_candidates(own, colour, occupied, visible, origin);
                        cands_known |= 1 << origin;
                    }
                    covered = self.child(1, own, opp, castling, ep, &root, mv, ptype, key, cands_from[origin], covered);
                }
                if covered == ALL_ROLLS {
                    self.give_back(0, moves);
                    return covered;
                }
            }
            self.give_back(0, moves);
        }
        covered
    }
}

/// Ordered rolls (of 216) with which `!defender` captures one of `defender`'s `target_type`.
pub fn capture_count(boards: &[Side; 2], castling: u32, ep: u64, defender: bool, target_type: usize) -> u32 {
    let targets = boards[usize::from(defender)][target_type];
    if targets == 0 {
        return 0;
    }
    let attacker = !defender;
    mask_weight(capture_mask(&boards[usize::from(attacker)], &boards[usize::from(defender)], attacker, castling, ep,
                             targets))
}
