class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList(
            CausalAttention(d_in, d_out, context_length, dropout, qkv_bias) for _ in range(num_heads))
        self.num_heads = num_heads

    def forward(self, x):
        stacked = torch.stack([head(x) for head in self.heads], dim=-1)  # (b, T, d_out, h)
        return stacked.flatten(-2) / self.num_heads
