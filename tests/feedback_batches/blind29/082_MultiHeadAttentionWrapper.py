import functools


class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList()
        self.heads.extend(CausalAttention(d_in, d_out, context_length, dropout, qkv_bias) for _ in range(num_heads))

    def forward(self, x):
        # fold the heads into one tensor, appending each head's features on the right
        return functools.reduce(lambda acc, head: torch.cat((acc, head(x)), dim=-1), self.heads[1:], self.heads[0](x))
