class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList(
            [CausalAttention(d_in, d_out, context_length, qkv_bias, dropout) for _ in range(num_heads)]
        )

    def forward(self, x):
        outs = [head(x) for head in self.heads]  # each (b, T, d_out)
        return torch.stack(outs, dim=-1).flatten(start_dim=-2)
