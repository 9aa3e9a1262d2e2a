class MultiHeadAttentionWrapper(nn.Module):
    """num_heads independent CausalAttention heads, outputs concatenated."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList()
        for _ in range(num_heads):
            self.heads.append(CausalAttention(d_in, d_out, context_length, dropout, qkv_bias=qkv_bias))

    def forward(self, x):
        # (b, T, d_out) each; dstack joins 3-D tensors along dim 2, the features
        return torch.dstack([head(x) for head in self.heads])
