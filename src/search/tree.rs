//! The search tree: one arena of nodes per game searched, children of a node
//! contiguous in the arena, the root at index 0.
//!
//! Values are stored for player 0 (`value0`, the sum of backed-up values
//! from player 0's side) and read with the sign of whoever decides at the
//! parent. Nothing depends on depth parity, so a player who decides several
//! times in a row (a backgammon roll's checker moves, a multi-capture's hops)
//! and chance nodes between turns need no special case.

use crate::core::{Action, Player};

/// What a node is, once reached.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// Not reached by any simulation yet: no state.
    Unreached,
    /// Reached, `Player` to decide, waiting for its evaluation (prior and value).
    Leaf(Player),
    /// Evaluated: the children are `Player`'s legal actions.
    Decision(Player),
    /// The children are the chance outcomes; `prior` holds their probabilities.
    Chance,
    /// A chance node reached under `evaluate_chance`, its outcomes listed,
    /// waiting for the evaluator's value for `Player` (the game's
    /// `chance_player`); once valued it becomes `Chance`.
    ChanceLeaf(Player),
    /// Over by the rules; the value is player 0's return.
    Terminal(f32),
    /// `max_turns` complete turns were played: valued as a draw (the
    /// environments return zero rewards when they truncate).
    Truncated,
}

impl Kind {
    /// The player whose value a waiting node needs (`Leaf`, `ChanceLeaf`).
    pub fn waiting_player(self) -> Option<Player> {
        match self {
            Kind::Leaf(p) | Kind::ChanceLeaf(p) => Some(p),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Node<S> {
    pub state: Option<S>,
    pub kind: Kind,
    /// The action (or chance outcome) that leads here from the parent.
    pub action: Action,
    /// Prior probability of `action` at the parent (a chance outcome's probability).
    pub prior: f32,
    /// The evaluator's logit of `action` (Gumbel selection reads it).
    pub logit: f32,
    pub visits: u32,
    /// Sum of the backed-up values, from player 0's side.
    pub value0: f64,
    /// The evaluator's value of this node, from player 0's side.
    pub raw0: f32,
    /// Complete turns played from the start of the game (truncation reads it).
    pub turns: u32,
    pub first_child: u32,
    pub num_children: u32,
    /// The node's exact value from player 0's side once proven (the solver:
    /// a terminal or truncated node; a decision with a child worth the most
    /// the game can give, or with every child proven; a chance node with
    /// every outcome proven).
    pub exact: Option<f32>,
    /// The first decision of a complete turn that wins at once from here,
    /// before the child it leads to is reached (the walk at expansion).
    pub winning: Option<Action>,
}

impl<S> Node<S> {
    pub fn new(action: Action, prior: f32, logit: f32) -> Self {
        Node {
            state: None,
            kind: Kind::Unreached,
            action,
            prior,
            logit,
            visits: 0,
            value0: 0.0,
            raw0: 0.0,
            turns: 0,
            first_child: 0,
            num_children: 0,
            exact: None,
            winning: None,
        }
    }

    pub fn children(&self) -> std::ops::Range<usize> {
        self.first_child as usize..(self.first_child + self.num_children) as usize
    }

    /// Mean value from `p`'s side (0 when never visited).
    #[inline]
    pub fn q(&self, p: Player) -> f32 {
        if self.visits == 0 {
            return 0.0;
        }
        sign(p) * (self.value0 / self.visits as f64) as f32
    }

    /// What the node is worth to `p`: its proven value, else its mean.
    #[inline]
    pub fn worth(&self, p: Player) -> f32 {
        match self.exact {
            Some(v0) => sign(p) * v0,
            None => self.q(p),
        }
    }

    /// Whether the node is proven worth `win` or more to `p`.
    #[inline]
    pub fn proven_win(&self, p: Player, win: f32) -> bool {
        self.exact.is_some_and(|v0| sign(p) * v0 >= win)
    }

    /// Whether the node is proven worth `-win` or less to `p`: the
    /// opponent's best.
    #[inline]
    pub fn proven_loss(&self, p: Player, win: f32) -> bool {
        self.exact.is_some_and(|v0| sign(p) * v0 <= -win)
    }
}

/// +1 for player 0, -1 for player 1: values are zero-sum.
#[inline]
pub fn sign(p: Player) -> f32 {
    if p == Player::P0 {
        1.0
    } else {
        -1.0
    }
}

#[derive(Clone, Debug)]
pub struct Tree<S> {
    pub nodes: Vec<Node<S>>,
}

impl<S: Clone> Tree<S> {
    pub fn with_root(state: S, player: Player, turns: u32) -> Self {
        let mut root = Node::new(Action(0), 1.0, 0.0);
        root.state = Some(state);
        root.kind = Kind::Leaf(player);
        root.turns = turns;
        Tree { nodes: vec![root] }
    }

    /// Appends children for `(action, prior, logit)` to `parent`.
    pub fn add_children(&mut self, parent: usize, children: impl Iterator<Item = (Action, f32, f32)>) {
        let first = self.nodes.len();
        self.nodes.extend(children.map(|(a, p, l)| Node::new(a, p, l)));
        let count = (self.nodes.len() - first) as u32;
        let node = &mut self.nodes[parent];
        node.first_child = first as u32;
        node.num_children = count;
    }

    /// The subtree under `new_root` as a tree of its own (root at 0), for
    /// tree reuse: nodes outside it are dropped.
    pub fn subtree(&self, new_root: usize) -> Tree<S> {
        let mut nodes = vec![self.nodes[new_root].clone()];
        // Breadth-first: children stay contiguous in the new arena.
        let mut i = 0;
        while i < nodes.len() {
            let old = nodes[i].children();
            let first = nodes.len();
            nodes.extend(self.nodes[old.clone()].iter().cloned());
            nodes[i].first_child = first as u32;
            nodes[i].num_children = old.len() as u32;
            i += 1;
        }
        Tree { nodes }
    }
}
