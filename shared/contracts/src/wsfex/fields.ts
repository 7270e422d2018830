/** Export voucher types WSFEXv1 accepts (authority-ws.md §4.3, error 1530). */
export const WSFEX_CBTE_TIPOS = [19, 20, 21] as const;
