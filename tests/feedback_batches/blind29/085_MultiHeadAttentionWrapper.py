class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        head_dim = d_out // num_heads  # each head gets its share of d_out
        self.heads = nn.ModuleList(
            [CausalAttention(d_in, head_dim, context_length, dropout) for _ in range(num_heads)]
        )

    def forward(self, x):
        return torch.cat([head(x) for head in self.heads], dim=-1)
