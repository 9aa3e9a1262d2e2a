class SelfAttention_v2(nn.Module):
    def __init__(self, d_in, d_out, qkv_bias=False):
        super().__init__()
        self.W_query = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = nn.Linear(d_in, d_out, bias=qkv_bias)

    def forward(self, x):
        with torch.no_grad():
            scale = self.W_key.out_features ** 0.5
            queries = self.W_query(x) / scale
            keys = self.W_key(x) / scale
            weights = torch.softmax(queries @ keys.T, dim=-1)
            return weights @ self.W_value(x)
