class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList(
            [CausalAttention(d_in, d_out, dropout, context_length, qkv_bias) for _ in range(num_heads)])
        self.dropout = nn.Dropout(dropout)  # regularise the joined heads too

    def forward(self, x):
        return self.dropout(torch.cat([head(x) for head in self.heads], dim=-1))
