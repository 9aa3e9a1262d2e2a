from torch import nn


def gpt2_small_attention():
    """Book exercise 3.3: GPT-2 small's attention (12 heads, 768 features, context 1024)."""
    return nn.MultiheadAttention(embed_dim=768, num_heads=12, dropout=0.0, bias=False, batch_first=True)
