from dataclasses import dataclass


@dataclass(frozen=True)
class GPT2Small:
    emb_dim: int = 768
    context_length: int = 1024
    n_heads: int = 12
    drop_rate: float = 0.0


def gpt2_small_attention():
    cfg = GPT2Small()
    return MultiHeadAttention(cfg.emb_dim, cfg.emb_dim, cfg.context_length, cfg.drop_rate, cfg.n_heads)
