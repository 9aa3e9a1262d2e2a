class MultiHeadAttentionWrapper(nn.Module):
    """Heads side by side; torch.dstack concatenates 3-D tensors along their last dim."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        make_head = lambda: CausalAttention(d_in, d_out, context_length, dropout, qkv_bias=qkv_bias)
        self.heads = nn.ModuleList([make_head() for _ in range(num_heads)])

    def forward(self, x):
        return torch.dstack([head(x) for head in self.heads])  # (b, T, num_heads * d_out)
