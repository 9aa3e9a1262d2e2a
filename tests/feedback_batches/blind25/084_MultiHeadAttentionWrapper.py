from functools import reduce

class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList()
        for _ in range(num_heads):
            self.heads.append(CausalAttention(d_in, d_out, context_length, dropout, qkv_bias))

    def forward(self, x):
        # fold the heads into one tensor, left to right: head 0's features come first
        first, *rest = self.heads
        return reduce(lambda acc, head: torch.cat((acc, head(x)), dim=-1), rest, first(x))
