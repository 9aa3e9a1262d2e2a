class MultiHeadAttentionWrapper(nn.Module):
    """Heads of d_in // num_heads features each, joined, then projected to d_out (nanoGPT's lecture)."""

    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        head_size = d_in // num_heads
        self.heads = nn.ModuleList(
            [CausalAttention(d_in, head_size, context_length, dropout, qkv_bias) for _ in range(num_heads)])
        self.proj = nn.Linear(head_size * num_heads, d_out)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        out = torch.cat([h(x) for h in self.heads], dim=-1)
        return self.dropout(self.proj(out))
