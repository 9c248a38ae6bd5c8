"""The dynamic program's state encoding sizes, shared by its compiled kernels
(`rummyai.solvers.dp_kernels`) and the Python that drives them (`rummyai.solvers.run_dp`).

Numba freezes module globals into the machine code: the kernels are built for these sizes.
"""

SUITS = 4
SLOTS = 2  # run slots per colour: one per copy of a natural
LENGTH = 3  # the minimum meld the compiled code is built for (slot lengths 0, 1, 2, 3+)
MAX_JOKERS = 2
# Compile-time sizes of the key's parts (numba freezes module globals into the machine code):
N_PAIRS = (LENGTH + 1) * (LENGTH + 2) // 2  # unordered pairs of slot lengths
N_SUMMARIES = (SUITS + 1) * (SUITS + 2) // 2  # (colours sending one, colours sending two) to groups
J1 = MAX_JOKERS + 1  # jokers placed: 0..MAX_JOKERS
TRACKED = 1  # start groups of one number whose naturals the tie-break follows (1 or 2)
MASKS = 1 << TRACKED  # which of them lost a natural to a run or the hand, so far in the number
DEFAULT_CAP = 1_000_000  # states one pass may keep over all layers, else no answer (None); 56k seen at most
