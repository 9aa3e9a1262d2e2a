class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList()
        for _ in range(num_heads):
            head = CausalAttention(d_in, d_in, context_length, dropout)
            self.heads.append(head)

    def forward(self, x):
        return torch.cat([head(x) for head in self.heads], dim=1)
