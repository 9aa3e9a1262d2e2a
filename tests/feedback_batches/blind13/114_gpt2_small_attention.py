from typing import NamedTuple


class GPT2SmallConfig(NamedTuple):
    emb_dim: int = 768
    context_length: int = 1024
    n_heads: int = 12
    drop_rate: float = 0.0
    qkv_bias: bool = False


def gpt2_small_attention():
    """Book exercise 3.3: GPT-2 small's attention (12 heads, 768 features, context 1024)."""
    cfg = GPT2SmallConfig()
    return MultiHeadAttention(cfg.emb_dim, cfg.emb_dim, cfg.context_length, cfg.drop_rate,
                              cfg.n_heads, qkv_bias=cfg.qkv_bias)
