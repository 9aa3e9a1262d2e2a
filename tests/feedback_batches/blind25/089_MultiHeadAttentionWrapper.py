class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList([CausalAttention(d_in, d_out, context_length, dropout) for i in range(num_heads)])

    def forward(self, x):
        out = self.heads[0](x)
        for head in self.heads[1:]:
            out = torch.cat([head(x), out], dim=-1)
        return out
