from dataclasses import dataclass


@dataclass(frozen=True)
class GPT2SmallConfig:
    n_embd: int = 768
    n_head: int = 12
    n_ctx: int = 1024
    attn_pdrop: float = 0.0
    qkv_bias: bool = False


def gpt2_small_attention():
    """Book exercise 3.3: GPT-2 small's attention (12 heads, 768 features, context 1024)."""
    cfg = GPT2SmallConfig()
    return MultiHeadAttention(
        d_in=cfg.n_embd, d_out=cfg.n_embd, context_length=cfg.n_ctx,
        dropout=cfg.attn_pdrop, num_heads=cfg.n_head, qkv_bias=cfg.qkv_bias,
    )
