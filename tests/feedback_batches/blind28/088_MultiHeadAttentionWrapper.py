import functools
import itertools


class MultiHeadAttentionWrapper(nn.Module):
    """num_heads independent CausalAttention heads, outputs concatenated."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        arguments = itertools.repeat((d_in, d_out, context_length, dropout, qkv_bias), num_heads)
        self.heads = nn.ModuleList(itertools.starmap(CausalAttention, arguments))

    def forward(self, x):
        first, *rest = self.heads
        return functools.reduce(lambda acc, head: torch.cat((acc, head(x)), dim=-1), rest, first(x))
