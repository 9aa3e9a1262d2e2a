class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList(
            [CausalAttention(d_in, d_out, context_length, 0.0, qkv_bias) for _ in range(num_heads)]
        )

    def forward(self, x):
        outputs = [head(x) for head in self.heads]
        return torch.stack(outputs, dim=-1)
