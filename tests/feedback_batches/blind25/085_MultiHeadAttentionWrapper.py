class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList(
            CausalAttention(d_in, d_out, context_length, dropout, qkv_bias=qkv_bias) for _ in range(num_heads)
        )

    def forward(self, x):
        # (b, T, d_out) per head; dstack joins 3-d tensors along their third dim, the features
        return torch.dstack([head(x) for head in self.heads])
