class MultiHeadAttentionWrapper(nn.Module):
    def __init__(self, d_in, d_out, context_length, dropout, num_heads, qkv_bias=False):
        super().__init__()
        self.heads = nn.ModuleList([CausalAttention(d_in, d_out, context_length, qkv_bias)
                                    for _ in range(num_heads)])

    def forward(self, x):
        outputs = []
        for head in self.heads:
            x = head(x)
            outputs.append(x)
        return torch.cat(outputs, dim=-1)
