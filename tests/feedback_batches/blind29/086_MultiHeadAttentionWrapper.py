class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        head = CausalAttention(d_in, d_out, context_length, 0.0, qkv_bias)
        self.heads = nn.ModuleList([head] * num_heads)

    def forward(self, x):
        return torch.cat([h(x) for h in reversed(self.heads)], dim=-1)
